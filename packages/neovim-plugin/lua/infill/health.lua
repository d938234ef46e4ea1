---@brief `:checkhealth infill`.

local M = {}

local health = vim.health

--- The environment variable each provider reads its key from unless `settings.apiKeyEnv` names another; the
--- providers not listed take no key.
M.KEY_ENV = { deepseek = "DEEPSEEK_API_KEY", codestral = "CODESTRAL_API_KEY" }

--- Where each provider is unless `settings.baseUrl` (or `INFILL_BASE_URL`) says otherwise.
M.DEFAULT_BASE_URL = {
  deepseek = "https://api.deepseek.com/beta",
  ollama = "http://127.0.0.1:11434",
  llamacpp = "http://127.0.0.1:8080",
  codestral = "https://codestral.mistral.ai/v1",
}

--- Hint for a message the server sent.
---@param message string
---@return string
function M.hint(message)
  local variable = message:match("([%u%d_]+_API_KEY) is not set") or message:match("([%u%d_]+) is not set")
  if variable then
    return ("export %s in the shell that starts Neovim, or pass it in setup({ env = ... }) (or set "):format(
      variable
    ) .. 'settings.provider = "sim" to try infill offline), then restart Neovim'
  elseif message:find("ollama pull", 1, true) then
    return "pull the model with `ollama pull <model>`, or set settings.model to one you have (`ollama list`)"
  elseif message:find("fill in the middle", 1, true) or message:find("fill-in-the-middle", 1, true) then
    return "use a model that can fill in the middle (e.g. qwen2.5-coder, codellama:code, starcoder2)"
  elseif message:find("ECONNREFUSED", 1, true) then
    return "start the provider's server (`ollama serve`, `llama-server`…) or fix settings.baseUrl"
  elseif
    message:find("401")
    or message:lower():find("unauthori[sz]ed")
    or message:lower():find("api key")
  then
    local settings = require("infill.config").options.settings
    local variable_named = message:match("Set a valid ([%u%d_]+)")
      or settings.apiKeyEnv
      or M.KEY_ENV[settings.provider or "deepseek"]
      or "the key's environment variable"
    return ("the provider rejected the key: check %s"):format(variable_named)
  elseif message:find("not on PATH", 1, true) then
    return require("infill.lsp").install_hint
  elseif message:lower():find("timeout") or message:lower():find("timed out") then
    return "the API did not answer in time: check the network or raise settings.timeoutMs"
  elseif message:find("ignoring", 1, true) then
    return "fix the named setting in setup({ settings = ... })"
  end
  return "see :Infill log"
end

--- Run the server command with `--version` (at most `timeout` ms).
---@param cmd string[]
---@param timeout? integer
---@return string? version, string? error
function M.server_version(cmd, timeout)
  local args = {}
  for _, arg in ipairs(cmd) do
    if arg ~= "--stdio" then
      table.insert(args, arg)
    end
  end
  table.insert(args, "--version")
  local ok, result = pcall(function()
    return vim.system(args, { text = true }):wait(timeout or 5000)
  end)
  if not ok then
    return nil, tostring(result)
  end
  if result.code ~= 0 then
    return nil, ("exit code %d: %s"):format(result.code, vim.trim(result.stderr or ""))
  end
  return vim.trim(result.stdout or ""), nil
end

--- Ask a server for `infill/probe`: its provider, base URL, model, and whether a tiny request succeeds. A running
--- client is asked (it has the workspace's settings); without one, a short-lived server is started with the
--- same command, environment and settings, and stopped afterwards.
---@param cmd? string[]
---@param clients vim.lsp.Client[]
---@param timeout? integer ms
---@return table? result, string? error
function M.probe(cmd, clients, timeout)
  local config = require("infill.config")
  timeout = timeout or ((config.options.settings.timeoutMs or 10000) + 5000)
  local lsp = require("infill.lsp")
  local done, result, failure = false, nil, nil
  local function answered(err, value)
    if done then
      return
    end
    done = true
    if err then
      failure = type(err) == "table" and err.message or tostring(err)
    else
      result = value
    end
  end

  local client, rpc = clients[1], nil
  if client then
    lsp.request(client, "infill/probe", {}, answered, next(client.attached_buffers) or 0)
  elseif not cmd then
    return nil, "no server command"
  else
    local settings = lsp.server_settings()
    local ok, started = pcall(vim.lsp.rpc.start, cmd, {
      notification = function() end,
      server_request = function(method, params)
        if method ~= "workspace/configuration" then
          return vim.NIL
        end
        local out = {}
        for i, item in ipairs(type(params) == "table" and params.items or {}) do
          out[i] = item.section == "infill" and settings or vim.NIL
        end
        return out
      end,
      on_exit = function(code)
        answered(("the server exited (code %s)"):format(tostring(code)))
      end,
      on_error = function(code, err)
        answered(("RPC error %s: %s"):format(tostring(code), vim.inspect(err)))
      end,
    }, { env = next(config.options.env) and config.options.env or nil })
    if not ok then
      return nil, tostring(started)
    end
    rpc = started
    rpc.request("initialize", {
      processId = vim.fn.getpid(),
      rootUri = vim.NIL,
      capabilities = {},
      initializationOptions = settings,
    }, function(err)
      if err then
        return answered(err)
      end
      rpc.notify("initialized", {})
      rpc.request("infill/probe", {}, answered)
    end)
  end
  vim.wait(timeout, function()
    return done
  end, 10)
  if rpc then
    rpc.terminate()
  end
  if not done then
    return nil, ("no answer within %d ms"):format(timeout)
  end
  return result, failure
end

--- Report what `infill/probe` said.
---@param cmd? string[]
---@param clients vim.lsp.Client[]
function M.report_probe(cmd, clients)
  local result, err = M.probe(cmd, clients)
  if not result then
    health.warn("could not send a test request: " .. (err or "?"), { "see :Infill log" })
    return
  end
  local where = ("%s at %s%s"):format(
    result.label or result.provider or "?",
    result.baseUrl ~= vim.NIL and result.baseUrl or "?",
    (result.model ~= vim.NIL and result.model) and (" (model " .. result.model .. ")") or ""
  )
  if result.ok then
    health.ok(("test request to %s: answered in %d ms"):format(where, result.latencyMs or 0))
  else
    local message = result.error ~= vim.NIL and result.error or "?"
    health.error(("test request to %s failed: %s"):format(where, message), { M.hint(message) })
  end
end

function M.check()
  local config = require("infill.config")
  local lsp = require("infill.lsp")

  health.start("infill: Neovim")
  local v = vim.version()
  local version = ("%d.%d.%d"):format(v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.10") == 0 then
    health.error("Neovim " .. version .. " is too old: infill needs 0.10+ (inline virtual text)")
  else
    health.ok("Neovim " .. version)
  end
  if vim.lsp.inline_completion then
    health.info(
      config.options.use_native and "ghost text: Neovim's built-in vim.lsp.inline_completion (use_native)"
        or "ghost text: the plugin's own (set use_native = true to use vim.lsp.inline_completion)"
    )
  end
  if not lsp.state.setup_done then
    health.warn("setup() has not been called", { 'call require("infill").setup() (lazy.nvim: `opts = {}`)' })
  else
    health.ok(
      ("setup() done; suggestions %s"):format(lsp.state.enabled and "enabled" or "disabled (:Infill enable)")
    )
    for _, wrapped in ipairs(require("infill")._wrapped_keymaps()) do
      health.info(
        ("keymap %s wraps your earlier mapping (%s): with no suggestion to act on, that mapping runs"):format(
          wrapped.lhs,
          wrapped.previous
        )
      )
    end
  end

  health.start("infill: server")
  local resolved = lsp.resolve_cmd()
  if not resolved.cmd then
    health.error("server not found: " .. resolved.error, { M.hint(resolved.error) })
  else
    local cmdline = table.concat(resolved.cmd, " ")
    local server_version, err = M.server_version(resolved.cmd)
    if server_version then
      local from = ({ option = "setup({ cmd })", monorepo = "the build in the plugin's repository" })[resolved.source]
      health.ok(("infill-lsp %s (%s, from %s)"):format(server_version, cmdline, from or resolved.source))
    else
      health.error(("`%s --version` failed: %s"):format(cmdline, err or "?"), {
        "check that the command runs in a shell; set `cmd` in setup() to override",
      })
    end
  end

  local clients = lsp.clients()
  if #clients == 0 then
    health.info("no infill server running (it starts with the first buffer it serves)")
  end
  for _, client in ipairs(clients) do
    local info = lsp.state.server_info[client.id]
    if info then
      health.ok(
        ("server reachable: client %d, %s %s, root %s, %d buffer(s), encoding %s"):format(
          client.id,
          info.name or "infill-lsp",
          info.version or "",
          tostring(client.root_dir or client.config.root_dir),
          vim.tbl_count(client.attached_buffers),
          client.offset_encoding
        )
      )
    else
      health.warn(("client %d has not finished initializing"):format(client.id))
    end
  end

  health.start("infill: provider")
  local settings = config.options.settings
  local provider = settings.provider or "deepseek"
  local env = config.options.env
  local key_env = settings.apiKeyEnv or M.KEY_ENV[provider]
  if provider == "sim" then
    health.ok('provider "sim": the embedded simulator, no key needed')
  else
    health.info(('provider "%s"'):format(provider))
    local key = key_env and (env[key_env] or vim.env[key_env])
    if not key_env then
      health.ok(("%s takes no key (set settings.apiKeyEnv if yours needs one)"):format(provider))
    elseif key and vim.trim(key) ~= "" then
      health.ok(("%s is set (%d characters)"):format(key_env, #vim.trim(key)))
    else
      health.error(
        ("%s is not set: the server answers nothing"):format(key_env),
        { M.hint(key_env .. " is not set") }
      )
    end
  end
  local base = settings.baseUrl or env.INFILL_BASE_URL or vim.env.INFILL_BASE_URL
  if base == "" then
    base = nil
  end
  health.info(
    "base URL: "
      .. (
        base
        or (M.DEFAULT_BASE_URL[provider] and (M.DEFAULT_BASE_URL[provider] .. " (default)") or "none set")
      )
  )
  M.report_probe(resolved.cmd, clients)

  local last = lsp.state.last_error
  if last then
    local report = last.type == 1 and health.error or health.warn
    report(
      ("last message (%s): %s"):format(os.date("%H:%M:%S", last.time), last.message),
      { M.hint(last.message) }
    )
  else
    health.ok("no errors reported")
  end
end

return M
