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
  vim.api.nvim_set_hl(0, "InfillNextEditDelete", { link = "DiffDelete", default = true })
  vim.api.nvim_set_hl(0, "InfillNextEditAdd", { link = "DiffAdd", default = true })
  vim.api.nvim_set_hl(0, "InfillNextEditSign", { link = "DiagnosticSignHint", default = true })
  vim.api.nvim_set_hl(0, "InfillNextEditHint", { link = "DiagnosticHint", default = true })
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
---@param opts? infill.UserOpts
function M.setup(opts)
  local config = require("infill.config")
  local lsp = require("infill.lsp")
  local _, problems = config.setup(opts)
  if #problems > 0 then
    lsp.report(2, "infill: " .. table.concat(problems, "; "), { kind = "options" })
  end
  setup_highlight()
  require("infill.keymaps").set(config.options.keymaps, config.next_edits_enabled())
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
        if config.next_edits_enabled() then
          require("infill.next_edit").attach(args.buf)
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
        local next_edit = package.loaded["infill.next_edit"]
        if next_edit then
          next_edit.detach(args.buf)
        end
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

--- Jump to the next edit shown; when the cursor is on its lines already, apply it (the server counts the accept)
--- and ask for the next one at once.
---@return boolean acted `false` when no next edit is shown.
function M.next_edit()
  return require("infill.next_edit").jump_or_apply()
end

--- Hide the next edit shown and cancel the request in flight.
---@return boolean was_visible
function M.next_edit_dismiss()
  local next_edit = package.loaded["infill.next_edit"]
  return next_edit ~= nil and next_edit.dismiss()
end

--- Ask for the next edit at the cursor now (insert or normal mode); ghost text at the cursor gives way.
---@return boolean sent `false` when next edits are off or no server serves the buffer.
function M.next_edit_request()
  return require("infill.next_edit").suggest()
end

--- Is a next edit shown in the current buffer?
---@return boolean
function M.has_next_edit()
  local next_edit = package.loaded["infill.next_edit"]
  return next_edit ~= nil and next_edit.is_visible()
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
    local next_edit = package.loaded["infill.next_edit"]
    if next_edit then
      next_edit.reset()
    end
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
    ("infill: %s, %s ghost text, auto-trigger %s, next edits %s"):format(
      lsp.state.enabled and "enabled" or "disabled",
      config.options.use_native and "built-in" or "plugin",
      config.options.auto_trigger and "on" or "off",
      config.next_edits_enabled() and "on" or "off (settings.nextEdit.enabled)"
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

--- Answer a `:Infill` command on the command line, as Ex commands do: the user asked, so the answer is shown
--- whatever the `notify` option says (that option is about messages nobody asked for).
---@param text string
---@param hl? string Highlight group, e.g. `ErrorMsg`.
local function reply(text, hl)
  vim.api.nvim_echo({ { text, hl } }, true, {})
end

---@type table<string, fun()>
local subcommands = {
  status = function()
    reply(table.concat(M.status_lines(), "\n"))
  end,
  enable = M.enable,
  disable = M.disable,
  toggle = M.toggle,
  log = M.open_log,
  nextedit = function()
    if not require("infill.config").next_edits_enabled() then
      reply(
        "infill: next edits are off: set settings.nextEdit.enabled = true (:help infill-next-edit)",
        "WarningMsg"
      )
    elseif not M.next_edit_request() then
      reply("infill: no server serves this buffer with next edits (:checkhealth infill)", "WarningMsg")
    end
  end,
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
    reply(
      ("infill: unknown subcommand %q (one of: %s)"):format(name, table.concat(M.subcommands(), ", ")),
      "ErrorMsg"
    )
    return
  end
  run()
end

return M
