---@brief The language server: finding `infill-lsp`, starting one client per root, its handlers and messages.

local config = require("infill.config")

local M = {}

--- Name of the client (and of the `vim.lsp.config` entry on Neovim 0.11+).
M.name = "infill"

local has_011 = vim.fn.has("nvim-0.11") == 1

---@class infill.Message
---@field type integer LSP MessageType (1 error, 2 warning, 3 info, 4 log).
---@field message string
---@field time integer `os.time()` when it arrived.
---@field kind? infill.PluginFailureKind What went wrong, for a problem of the plugin's own; nil for a server's message (its kind is the server's to say: `infill/probe`'s `lastFailure`).
---@field client_id? integer The client whose server sent it.

---@class infill.LspState
---@field enabled boolean Suggestions and server completions are on.
---@field notified table<string, boolean> Messages already shown through `vim.notify` this session.
---@field last_error? infill.Message The last error or warning from a server or from starting one.
---@field log string[] Recent log lines (server `window/logMessage`, messages, starts and exits).
---@field server_info table<integer, { name: string, version?: string }> By client id.
---@field setup_done boolean
local state = {
  enabled = true,
  notified = {},
  last_error = nil,
  log = {},
  server_info = {},
  setup_done = false,
}
M.state = state

local LOG_MAX = 500
local LEVELS = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }
local TYPE_NAMES = { "ERROR", "WARN", "INFO", "LOG" }

--- Append a line to the plugin's log (`:Infill log`).
---@param fmt string
---@param ... any
function M.log(fmt, ...)
  local line = ("%s %s"):format(os.date("%H:%M:%S"), select("#", ...) > 0 and fmt:format(...) or fmt)
  table.insert(state.log, line)
  if #state.log > LOG_MAX then
    table.remove(state.log, 1)
  end
end

--- Show `message` through `vim.notify` unless this session already showed it or the `notify` option is off. The
--- plugin's one call of `vim.notify`: every message it shows on its own comes here (through `report`).
---@param message string
---@param level integer vim.log.levels
local function notify_once(message, level)
  if state.notified[message] or not config.options.notify then
    return
  end
  state.notified[message] = true
  vim.notify(message, level, { title = "infill" })
end

---@alias infill.PluginFailureKind
---| "server-not-found" # no server command: `infill-lsp` not on PATH and none built
---| "server-exit" # a server exited with an error
---| "options" # setup() was given options it refused
---| "action-error" # a keymap action (accept, dismiss…) raised an error

--- Every message the plugin gets or makes goes here: into the log (`:Infill log`), remembered as the last problem
--- for `:checkhealth infill` (errors and warnings), and shown once through `vim.notify` (up to info) unless the
--- `notify` option is off.
---@param type integer LSP MessageType
---@param message string
---@param from? { kind?: infill.PluginFailureKind, client_id?: integer } `kind` for a problem of the plugin's own
--- (`:checkhealth` gives its hint), `client_id` for a server's message (`:checkhealth` asks that server its kind).
function M.report(type, message, from)
  local level = LEVELS[type] or vim.log.levels.INFO
  M.log("[%s] %s", TYPE_NAMES[type] or "?", message)
  if type <= 2 then
    from = from or {}
    state.last_error = {
      type = type,
      message = message,
      time = os.time(),
      kind = from.kind,
      client_id = from.client_id,
    }
  end
  if type <= 3 then
    notify_once(message, level)
  end
end

--- Directory of this plugin (the folder holding `lua/` and `plugin/`).
---@return string
function M.plugin_root()
  local source = debug.getinfo(1, "S").source:sub(2)
  return vim.fn.fnamemodify(source, ":p:h:h:h")
end

--- Where this monorepo builds the server, next to the plugin.
---@return string
function M.monorepo_server()
  return vim.fs.normalize(M.plugin_root() .. "/../lsp-server/dist/infill-lsp.js")
end

---@class infill.ResolvedCmd
---@field cmd? string[] The command, when one was found.
---@field source string `"option"`, `"monorepo"`, `"PATH"` or `"none"`.
---@field error? string Why none was found.

--- How the user can get a server, for messages and `:checkhealth infill`.
M.install_hint = "install it with `npm install --global @infill/lsp-server`, build it in the infill repository "
  .. "the plugin came from (`npx --yes pnpm@10 install && npx --yes pnpm@10 build`; see :help infill-setup), "
  .. "or set `cmd` in setup()"

--- How the server will be launched: `opts.cmd`, else the server built in the repository this plugin came from
--- (the plugin manager's `build` step made it, for this very version of the plugin), else `infill-lsp` on `PATH`.
---@param opts? infill.Opts
---@return infill.ResolvedCmd
function M.resolve_cmd(opts)
  opts = opts or config.options
  if type(opts.cmd) == "function" then
    local ok, cmd = pcall(opts.cmd)
    if ok and type(cmd) == "table" and #cmd > 0 then
      return { cmd = cmd, source = "option" }
    end
    return { source = "none", error = "opts.cmd() did not return a command: " .. tostring(cmd) }
  elseif type(opts.cmd) == "table" then
    return { cmd = vim.deepcopy(opts.cmd), source = "option" }
  end
  local script = M.monorepo_server()
  local built = vim.uv.fs_stat(script) ~= nil
  if built then
    local node = vim.fn.exepath("node")
    if node ~= "" then
      -- The same Node flag as the bundle's shebang: a small young generation keeps the server's memory low.
      return { cmd = { node, "--max-semi-space-size=1", script, "--stdio" }, source = "monorepo" }
    end
  end
  local exe = vim.fn.exepath("infill-lsp")
  if exe ~= "" then
    return { cmd = { exe, "--stdio" }, source = "PATH" }
  end
  if built then
    return { source = "none", error = "found " .. script .. " but no `node` on PATH to run it" }
  end
  return {
    source = "none",
    error = "infill-lsp was not found (it is not on PATH, and "
      .. script
      .. " has not been built): install it with `npm install --global @infill/lsp-server`, "
      .. "or see :checkhealth infill",
  }
end

--- Should `bufnr` get a server (and suggestions)? Normal buffers with a filetype that the `filetypes` option
--- allows (`"*"` is the fallback).
---@param bufnr integer
---@return boolean
function M.should_serve(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return false
  end
  local buftype = vim.bo[bufnr].buftype
  if buftype ~= "" and buftype ~= "acwrite" then
    return false
  end
  local filetypes = config.options.filetypes
  local ft = vim.bo[bufnr].filetype
  if ft == "" then
    -- Not a file anyone is editing as code (the empty buffer at startup, scratch buffers).
    return false
  end
  local rule = filetypes[ft]
  if rule == nil and ft:find("%.") then
    -- Compound filetypes ("javascript.jsx"): the first listed part that has a rule decides.
    for part in ft:gmatch("[^.]+") do
      if filetypes[part] ~= nil then
        rule = filetypes[part]
        break
      end
    end
  end
  if rule == nil then
    rule = filetypes["*"]
  end
  if type(rule) == "function" then
    local ok, result = pcall(rule, bufnr)
    return ok and result == true
  end
  return rule == true
end

--- A predicate of file names: true for one of `names`, where `*` stands for any characters (`*.csproj`: a C#
--- project file is named after its project).
---@param names string[]
---@return fun(name: string): boolean
local function name_matcher(names)
  local exact, patterns = {}, {}
  for _, name in ipairs(names) do
    if name:find("*", 1, true) then
      local pattern = vim.pesc(name):gsub("%%%*", ".*")
      table.insert(patterns, "^" .. pattern .. "$")
    else
      exact[name] = true
    end
  end
  return function(name)
    if exact[name] then
      return true
    end
    for _, pattern in ipairs(patterns) do
      if name:find(pattern) then
        return true
      end
    end
    return false
  end
end

--- Project root of `bufnr`, which the server gets as its workspace folder: the nearest folder holding a marker of
--- the first entry of `root_markers`, else of the next one, and so on; else the working directory if the file lies
--- in it, else the file's folder (a workspace that does not hold the file would give the server no context).
---@param bufnr integer
---@return string
function M.root(bufnr)
  for _, markers in ipairs(config.options.root_markers) do
    -- A function keeps a nested list's names of equal priority: given the list, vim.fs.root() tries its names one
    -- after another on Neovim 0.12 but together on 0.10.
    local matches = name_matcher(type(markers) == "table" and markers or { markers })
    local root = vim.fs.root(bufnr, function(name)
      return matches(name)
    end)
    if root then
      return root
    end
  end
  local cwd = vim.fn.getcwd()
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or name:find("^%a[%w+.-]*://") then
    return cwd
  end
  local dir = vim.fs.dirname(vim.fs.normalize(vim.fn.fnamemodify(name, ":p")))
  -- getcwd() is a real path; the file's may go through a symlink.
  local real = vim.uv.fs_realpath(dir) or dir
  if real == cwd or vim.startswith(real, cwd == "/" and "/" or cwd .. "/") then
    return cwd
  end
  return dir
end

--- Settings sent to the server: the user's, with the plugin's on/off switch folded into `enable`.
---@return table
function M.server_settings()
  local settings = vim.deepcopy(config.options.settings)
  settings.enable = state.enabled and settings.enable ~= false
  return settings
end

---@type table<string, lsp.Handler>
local handlers = {
  ["window/showMessage"] = function(_, params, ctx)
    if type(params) == "table" and type(params.message) == "string" then
      M.report(params.type or 3, params.message, { client_id = ctx.client_id })
    end
    return vim.NIL
  end,
  ["window/logMessage"] = function(_, params, ctx)
    if type(params) == "table" and type(params.message) == "string" then
      M.log("[%s] client %d: %s", TYPE_NAMES[params.type] or "?", ctx.client_id, params.message)
    end
    return vim.NIL
  end,
  ["$/infill/partial"] = function(_, params, ctx)
    require("infill.suggestion").on_partial(params, ctx.client_id)
    return vim.NIL
  end,
  ["infill/typeDefinitions"] = function(err, params, ctx)
    return require("infill.type_definitions").handle(err, params, ctx)
  end,
  ["workspace/configuration"] = function(_, params)
    local out = {}
    for i, item in ipairs(type(params) == "table" and params.items or {}) do
      out[i] = item.section == "infill" and M.server_settings() or vim.NIL
    end
    return out
  end,
}

--- The client capabilities: Neovim's; with `type_definitions`, that it answers `infill/typeDefinitions` (through the
--- buffer's other language servers); and, when the plugin draws ghost text itself, that it says which suggestions
--- it drew (`infill.shown`: the server then counts a suggestion shown when it is drawn) and, with `stream`, partial
--- results (`$/infill/partial`).
---@return lsp.ClientCapabilities
function M.capabilities()
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  local infill = {}
  if config.options.type_definitions then
    infill.typeDefinitions = true
  end
  if not config.options.use_native then
    infill.reportsShown = true
    if config.options.stream then
      infill.partialResults = true
    end
  end
  if next(infill) then
    capabilities.experimental = vim.tbl_extend("force", capabilities.experimental or {}, { infill = infill })
  end
  return capabilities
end

--- The client configuration (without `root_dir`).
---@param cmd string[]
---@return vim.lsp.ClientConfig
function M.client_config(cmd)
  local settings = M.server_settings()
  return {
    name = M.name,
    cmd = cmd,
    capabilities = M.capabilities(),
    cmd_env = next(config.options.env) and vim.deepcopy(config.options.env) or nil,
    init_options = settings,
    settings = { infill = settings },
    handlers = handlers,
    on_init = function(client, result)
      local info = type(result) == "table" and result.serverInfo or nil
      state.server_info[client.id] = type(info) == "table" and info or { name = "infill-lsp" }
      M.log(
        "client %d started: %s %s (root %s, encoding %s)",
        client.id,
        state.server_info[client.id].name or "?",
        state.server_info[client.id].version or "?",
        tostring(client.root_dir or client.config.root_dir),
        client.offset_encoding
      )
    end,
    on_exit = function(code, signal, client_id)
      state.server_info[client_id] = nil
      M.log("client %d exited (code %s, signal %s)", client_id, tostring(code), tostring(signal))
      if code ~= 0 and signal ~= 15 then
        vim.schedule(function()
          if vim.v.exiting == vim.NIL then
            M.report(
              1,
              ("infill: the server exited with code %s; see :Infill log"):format(tostring(code)),
              { kind = "server-exit" }
            )
          end
        end)
      end
    end,
  }
end

--- The infill client attached to `bufnr`, if any.
---@param bufnr? integer
---@return vim.lsp.Client?
function M.get_client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or vim.api.nvim_get_current_buf(), name = M.name })[1]
end

--- Every running infill client.
---@return vim.lsp.Client[]
function M.clients()
  return vim.lsp.get_clients({ name = M.name })
end

--- `client:request()` on 0.11+, `client.request()` on 0.10.
---@param client vim.lsp.Client
---@param method string
---@param params table
---@param handler lsp.Handler
---@param bufnr integer
---@return boolean ok, integer? request_id
function M.request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  ---@diagnostic disable-next-line: param-type-mismatch
  return client.request(method, params, handler, bufnr)
end

--- Whether `client` handles `method` for `bufnr` (its capabilities, dynamic registrations included):
--- `client:supports_method()` on 0.11+, `client.supports_method()` on 0.10.
---@param client vim.lsp.Client
---@param method string
---@param bufnr integer
---@return boolean
function M.supports(client, method, bufnr)
  if has_011 then
    return client:supports_method(method, bufnr)
  end
  ---@diagnostic disable-next-line: param-type-mismatch
  return client.supports_method(method, { bufnr = bufnr })
end

--- `client:request_sync()` on 0.11+, `client.request_sync()` on 0.10.
---@param client vim.lsp.Client
---@param method string
---@param params table
---@param timeout_ms integer
---@param bufnr integer
---@return { err: lsp.ResponseError?, result: any }? response, string? err
function M.request_sync(client, method, params, timeout_ms, bufnr)
  if has_011 then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  ---@diagnostic disable-next-line: param-type-mismatch
  return client.request_sync(method, params, timeout_ms, bufnr)
end

---@param client vim.lsp.Client
---@param id integer
function M.cancel(client, id)
  if has_011 then
    client:cancel_request(id)
  else
    ---@diagnostic disable-next-line: param-type-mismatch
    client.cancel_request(id)
  end
end

--- Cancel request `id` of the client `client_id` (`$/cancelRequest`), if that client still runs.
---@param client_id integer
---@param id integer
function M.cancel_request(client_id, id)
  local client = vim.lsp.get_client_by_id(client_id)
  if client then
    pcall(M.cancel, client, id)
  end
end

---@param client vim.lsp.Client
---@param method string
---@param params table
function M.notify(client, method, params)
  if has_011 then
    client:notify(method, params)
  else
    ---@diagnostic disable-next-line: param-type-mismatch
    client.notify(method, params)
  end
end

--- Tell every running server about the current settings (after `:Infill enable`/`disable`).
function M.push_settings()
  local settings = { infill = M.server_settings() }
  for _, client in ipairs(M.clients()) do
    client.settings = settings
    if client.config then
      client.config.settings = settings
    end
    M.notify(client, "workspace/didChangeConfiguration", { settings = settings })
  end
end

local cmd_error_reported = false

--- Start (or reuse) the client for `bufnr` if it should be served. Used on Neovim 0.10, where there is no
--- `vim.lsp.enable`.
---@param bufnr integer
---@return integer? client_id
function M.attach(bufnr)
  if not M.should_serve(bufnr) then
    return nil
  end
  local resolved = M.resolve_cmd()
  if not resolved.cmd then
    if not cmd_error_reported then
      cmd_error_reported = true
      M.report(1, "infill: " .. resolved.error, { kind = "server-not-found" })
    end
    return nil
  end
  local client_config = M.client_config(resolved.cmd)
  client_config.root_dir = M.root(bufnr)
  return vim.lsp.start(client_config, { bufnr = bufnr })
end

--- Register the server: `vim.lsp.config` + `vim.lsp.enable` on Neovim 0.11+, a `FileType` autocmd on 0.10.
--- Buffers already open are served too.
function M.setup()
  state.enabled = config.options.enabled
  state.setup_done = true
  local group = vim.api.nvim_create_augroup("infill.lsp", { clear = true })
  if has_011 and vim.lsp.config and vim.lsp.enable then
    local resolved = M.resolve_cmd()
    if not resolved.cmd then
      M.report(1, "infill: " .. resolved.error, { kind = "server-not-found" })
      return
    end
    local client_config = M.client_config(resolved.cmd) --[[@as vim.lsp.Config]]
    client_config.root_dir = function(bufnr, on_dir)
      if M.should_serve(bufnr) then
        on_dir(M.root(bufnr))
      end
    end
    -- Assigned, not merged (`vim.lsp.config(name, cfg)` would merge lists such as `cmd` index by index), so a
    -- second setup() replaces the first. Users can still refine it with vim.lsp.config("infill", {...}) after.
    vim.lsp.config[M.name] = client_config
    vim.lsp.enable(M.name)
  else
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      callback = function(args)
        M.attach(args.buf)
      end,
    })
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype ~= "" then
        M.attach(bufnr)
      end
    end
  end
end

return M
