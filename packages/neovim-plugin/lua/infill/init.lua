---@brief infill: fill-in-the-middle ghost text from `infill-lsp` (DeepSeek FIM).
---
--- `require("infill").setup(opts)` starts serving buffers; the functions below are what the keymaps call.

local M = {}

--- The ghost-text backend: the plugin's own rendering, or Neovim's built-in one (`use_native`).
---@return table
local function backend()
  if require("infill.config").options.use_native then
    return require("infill.native")
  end
  return require("infill.suggestion")
end

local function setup_highlight()
  vim.api.nvim_set_hl(0, "InfillSuggestion", { link = "Comment", default = true })
end

--- What `lhs` does in insert mode when it is not mapped. An unmapped Alt key is `<Esc>` and the key (leave insert
--- mode, then the normal-mode command), but only as typed: fed back with `nvim_feedkeys` it would insert the key.
---@param lhs string
---@return string
function M._unmapped_keys(lhs)
  local inner = lhs:match("^<[MmAa]%-(.+)>$")
  if not inner then
    return lhs
  end
  return "<Esc>" .. (vim.fn.strchars(inner) == 1 and inner or ("<" .. inner .. ">"))
end

--- The global insert-mode mapping of `lhs`, in `maparg()` form, or nil.
---@param lhs string
---@return table?
local function global_mapping(lhs)
  local found = vim.fn.maparg(lhs, "i", false, true)
  if vim.tbl_isempty(found) then
    return nil
  end
  if found.buffer ~= 1 then
    return found
  end
  -- A buffer-local mapping hides the global one from maparg(); look the global one up by its normalized lhs.
  for _, m in ipairs(vim.api.nvim_get_keymap("i")) do
    if m.lhs == found.lhs then
      return m
    end
  end
  return nil
end

---@param m? table maparg() form
---@return boolean
local function is_ours(m)
  return m ~= nil and vim.startswith(m.desc or "", "infill: ")
end

---@class infill.Mapped
---@field lhs string
---@field previous? table The user's mapping of `lhs` before the plugin's (maparg() form), restored on teardown.

---@type infill.Mapped[]
local mapped = {}

--- Errors already shown through `vim.notify` this session.
---@type table<string, boolean>
local action_errors = {}

--- Run the keymap action `name`. An error is reported (through `vim.notify` once per message, and in the log and
--- `:checkhealth`), the suggestion is dropped, and the action counts as having done nothing.
---@param name string
---@param action fun(): boolean
---@return boolean acted, boolean failed
function M._run_action(name, action)
  local ok, result = pcall(action)
  if ok then
    return result == true, false
  end
  local message = ("infill: %s failed: %s"):format(name, tostring(result))
  local lsp = require("infill.lsp")
  lsp.log("[ERROR] %s", message)
  lsp.state.last_error = { type = 1, message = message, time = os.time() }
  if not action_errors[message] then
    action_errors[message] = true
    vim.notify(message, vim.log.levels.ERROR, { title = "infill" })
  end
  pcall(M.dismiss)
  return false, true
end

--- Do what the user's mapping `previous` of `lhs` does, as a mapping would: call its callback or feed its
--- right-hand side (evaluated when it is an <expr> mapping), remapped unless it is a noremap mapping. As in Vim,
--- keys of the result that start with `lhs` itself are not mapped again.
---@param previous table maparg() form
---@param lhs string
function M._run_previous(previous, lhs)
  local keys
  if previous.callback then
    local result = previous.callback()
    if previous.expr ~= 1 then
      return
    end
    keys = type(result) == "string" and result or ""
    if previous.replace_keycodes == 1 then
      keys = vim.keycode(keys)
    end
  else
    local rhs = previous.rhs or ""
    if (previous.sid or 0) > 0 then
      rhs = rhs:gsub("<[Ss][Ii][Dd]>", "<SNR>" .. previous.sid .. "_")
    end
    if previous.expr == 1 then
      local result = vim.api.nvim_eval(rhs)
      keys = type(result) == "string" and result or tostring(result)
    else
      keys = vim.keycode(rhs)
    end
  end
  if keys == "" then
    return
  end
  local own = vim.keycode(lhs)
  if previous.noremap == 1 or previous.script == 1 then
    vim.api.nvim_feedkeys(keys, "n", false)
  elseif vim.startswith(keys, own) then
    vim.api.nvim_feedkeys(vim.keycode(M._unmapped_keys(lhs)), "n", false)
    vim.api.nvim_feedkeys(keys:sub(#own + 1), "m", false)
  else
    vim.api.nvim_feedkeys(keys, "m", false)
  end
end

---@param name string
---@param lhs string
---@param desc string
---@param fallback boolean Feed the key's own meaning when the action did nothing and there was no user mapping.
---@return infill.Mapped
local function map(name, lhs, desc, fallback)
  local previous = global_mapping(lhs)
  local entry = { lhs = lhs, previous = not is_ours(previous) and previous or nil }
  local keys = vim.keycode(M._unmapped_keys(lhs))
  vim.keymap.set("i", lhs, function()
    local acted, failed = M._run_action(name, M[name])
    if acted or failed then
      return
    end
    if entry.previous then
      M._run_previous(entry.previous, lhs)
    elseif fallback then
      vim.api.nvim_feedkeys(keys, "n", false)
    end
  end, { desc = "infill: " .. desc, silent = true })
  return entry
end

---@type table<string, { desc: string, fallback: boolean }>
local keymap_actions = {
  accept = { desc = "accept suggestion", fallback = true },
  accept_word = { desc = "accept next word", fallback = true },
  accept_line = { desc = "accept next line", fallback = true },
  next = { desc = "next suggestion", fallback = true },
  prev = { desc = "previous suggestion", fallback = true },
  dismiss = { desc = "dismiss suggestion", fallback = true },
  suggest = { desc = "suggest now", fallback = false },
}

--- The plugin's keymaps that wrap a mapping the user had before: lhs and the previous mapping's description.
---@return { lhs: string, previous: string }[]
function M._wrapped_keymaps()
  local out = {}
  for _, entry in ipairs(mapped) do
    if entry.previous then
      local p = entry.previous
      table.insert(out, { lhs = entry.lhs, previous = p.desc or p.rhs or "(Lua function)" })
    end
  end
  return out
end

--- Remove the plugin's keymaps and put back the mappings they wrapped.
local function remove_keymaps()
  for i = #mapped, 1, -1 do
    local entry = mapped[i]
    -- A mapping the user set over the plugin's since is theirs to keep.
    if is_ours(global_mapping(entry.lhs)) then
      pcall(vim.keymap.del, "i", entry.lhs)
      if entry.previous then
        pcall(vim.fn.mapset, "i", false, entry.previous)
      end
    end
  end
  mapped = {}
end

---@param keymaps infill.Keymaps|false
local function set_keymaps(keymaps)
  remove_keymaps()
  if not keymaps then
    return
  end
  local names = vim.tbl_keys(keymap_actions)
  table.sort(names)
  for _, name in ipairs(names) do
    local spec = keymap_actions[name]
    local lhs = keymaps[name]
    if type(lhs) == "string" and lhs ~= "" then
      table.insert(mapped, map(name, lhs, spec.desc, spec.fallback))
    end
  end
end

--- Generate the help tags of this plugin's `doc/` when they are missing or older than the help file, for
--- `:help infill`: plugin managers do it for the folder they clone, and this plugin is a subfolder of its repository.
local function ensure_helptags()
  local doc = require("infill.lsp").plugin_root() .. "/doc"
  if vim.fn.getftime(doc .. "/tags") < vim.fn.getftime(doc .. "/infill.txt") then
    -- A read-only install (a system package) has its tags already, or goes without.
    pcall(vim.cmd.helptags, doc)
  end
end

--- Set infill up: options, highlight, keymaps, and the server for the buffers it should serve. Calling it
--- again replaces the options.
---@param opts? infill.UserConfig
function M.setup(opts)
  local config = require("infill.config")
  local lsp = require("infill.lsp")
  local _, problems = config.setup(opts)
  if #problems > 0 then
    lsp.report(2, "infill: " .. table.concat(problems, "; "))
  end
  setup_highlight()
  set_keymaps(config.options.keymaps)
  ensure_helptags()

  local group = vim.api.nvim_create_augroup("infill", { clear = true })
  vim.api.nvim_create_autocmd("ColorScheme", { group = group, callback = setup_highlight })
  vim.api.nvim_create_autocmd("LspAttach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == lsp.name then
        if config.options.use_native then
          require("infill.native").attach(args.buf)
        else
          require("infill.suggestion").attach(args.buf)
        end
      end
    end,
  })
  vim.api.nvim_create_autocmd("LspDetach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == lsp.name then
        backend().detach(args.buf)
      end
    end,
  })
  lsp.setup()
  -- Buffers whose client was attached before this setup() (setup called again).
  for _, client in ipairs(lsp.clients()) do
    for bufnr in pairs(client.attached_buffers) do
      vim.api.nvim_exec_autocmds("LspAttach", {
        group = group,
        buffer = bufnr,
        modeline = false,
        data = { client_id = client.id },
      })
    end
  end
end

--- Ask for a suggestion at the cursor now (insert or normal mode).
---@return boolean sent
function M.suggest()
  return backend().suggest()
end

--- Is a suggestion shown?
---@return boolean
function M.is_visible()
  return backend().is_visible()
end

--- Insert the whole suggestion at its range (replacing e.g. an auto-paired closer) and move the cursor after it.
---@return boolean inserted `false` when no suggestion was shown.
function M.accept()
  return backend().accept()
end

--- Insert the suggestion's next word.
---@return boolean inserted
function M.accept_word()
  return backend().accept_word()
end

--- Insert the rest of the suggestion's current line.
---@return boolean inserted
function M.accept_line()
  return backend().accept_line()
end

--- Hide the suggestion and cancel pending requests; the next keystroke asks again.
---@return boolean was_visible
function M.dismiss()
  return backend().dismiss()
end

--- Show the next suggestion when the last answer had several.
---@return boolean moved
function M.next()
  return backend().next()
end

--- Show the previous suggestion.
---@return boolean moved
function M.prev()
  return backend().prev()
end

--- Are suggestions on?
---@return boolean
function M.is_enabled()
  return require("infill.lsp").state.enabled
end

--- Turn suggestions (ghost text and the server's popup completions) on or off.
---@param enabled boolean
function M.set_enabled(enabled)
  local lsp = require("infill.lsp")
  if not lsp.state.setup_done then
    M.setup()
  end
  lsp.state.enabled = enabled
  if not enabled then
    M.dismiss()
  end
  if require("infill.config").options.use_native then
    require("infill.native").set_enabled(enabled)
  end
  lsp.push_settings()
end

function M.enable()
  M.set_enabled(true)
end

function M.disable()
  M.set_enabled(false)
end

function M.toggle()
  M.set_enabled(not M.is_enabled())
end

--- Lines of `:Infill status`: the plugin, the servers, and the usage figures of this buffer's server.
---@return string[]
function M.status_lines()
  local lsp = require("infill.lsp")
  local config = require("infill.config")
  if not lsp.state.setup_done then
    return { 'infill: not set up; call require("infill").setup()' }
  end
  local lines = {
    ("infill: %s, %s ghost text, auto-trigger %s"):format(
      lsp.state.enabled and "enabled" or "disabled",
      config.options.use_native and "built-in" or "plugin",
      config.options.auto_trigger and "on" or "off"
    ),
  }
  local resolved = lsp.resolve_cmd()
  table.insert(
    lines,
    resolved.cmd and ("server: %s (%s)"):format(table.concat(resolved.cmd, " "), resolved.source)
      or ("server: not found: %s"):format(resolved.error)
  )
  local current = lsp.get_client(0)
  for _, client in ipairs(lsp.clients()) do
    local info = lsp.state.server_info[client.id] or {}
    table.insert(
      lines,
      ("client %d: %s %s, root %s%s"):format(
        client.id,
        info.name or "infill-lsp",
        info.version or "(starting)",
        tostring(client.root_dir or client.config.root_dir),
        current and current.id == client.id and " (this buffer)" or ""
      )
    )
  end
  if not current then
    table.insert(lines, "this buffer: not served (filetype " .. vim.bo.filetype .. ")")
  end
  if lsp.state.last_error then
    table.insert(lines, "last message: " .. lsp.state.last_error.message)
  end
  -- The usage figures of this buffer's server (or of the first one running).
  local usage_client = current or lsp.clients()[1]
  if usage_client and usage_client.initialized then
    local usage = require("infill.usage")
    local status, err = usage.fetch(usage_client)
    vim.list_extend(lines, status and usage.status_lines(status) or { "usage: " .. tostring(err) })
  end
  return lines
end

--- Open the plugin's log (server log messages, notifications, starts and exits) in a scratch buffer.
function M.open_log()
  local lsp = require("infill.lsp")
  vim.cmd("new")
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].buftype = "nofile"
  vim.bo[bufnr].bufhidden = "wipe"
  vim.bo[bufnr].swapfile = false
  local lines = { "# infill log (LSP log: " .. vim.lsp.get_log_path() .. ")" }
  vim.list_extend(lines, lsp.state.log)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  pcall(vim.api.nvim_buf_set_name, bufnr, "infill://log")
end

---@type table<string, fun()>
local subcommands = {
  status = function()
    vim.api.nvim_echo({ { table.concat(M.status_lines(), "\n") } }, true, {})
  end,
  enable = M.enable,
  disable = M.disable,
  toggle = M.toggle,
  log = M.open_log,
}

--- Names of the `:Infill` subcommands.
---@return string[]
function M.subcommands()
  local names = vim.tbl_keys(subcommands)
  table.sort(names)
  return names
end

--- Run `:Infill {subcommand}` (no argument: `status`).
---@param args { fargs: string[] }
function M.command(args)
  local name = args.fargs[1] or "status"
  local run = subcommands[name]
  if not run then
    vim.notify(
      ("infill: unknown subcommand %q (one of: %s)"):format(name, table.concat(M.subcommands(), ", ")),
      vim.log.levels.ERROR
    )
    return
  end
  run()
end

return M
