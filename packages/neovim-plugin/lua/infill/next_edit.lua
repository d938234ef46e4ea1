---@brief Next edits: asking the server where the user's change goes on (`textDocument/copilotInlineEdit`, as
--- copilot-language-server answers it), previewing the nearest edit, jumping to it and applying it.
---
--- One preview at a time, drawn once when its answer arrives and left alone until it goes: typing, a change under
--- it (the document version it was made for is no longer the buffer's), `InsertEnter`, leaving the buffer, ghost
--- text at the cursor, dismissing or applying it.

local config = require("infill.config")
local layout = require("infill.next_edit_layout")
local lsp = require("infill.lsp")
local position = require("infill.position")

local M = {}

local api = vim.api

--- The request, the notification that an edit is shown, and the namespaces of the preview and the off-screen hint.
M.METHOD = "textDocument/copilotInlineEdit"
M.DID_SHOW = "textDocument/didShowInlineEdit"
M.ns = api.nvim_create_namespace("infill.next_edit")
M.hint_ns = api.nvim_create_namespace("infill.next_edit.hint")

local METHOD_NOT_FOUND = -32601
local REQUEST_CANCELLED = -32800
local CONTENT_MODIFIED = -32801
--- How many debounce periods a due request waits for the ghost text's request to settle before it gives up.
local MAX_WAITS = 20
--- Above diagnostics' virtual text, like the ghost text.
local PRIORITY = 200

---@class infill.NextEdit
---@field bufnr integer
---@field client_id integer
---@field version integer The document version the edit was made for.
---@field range lsp.Range As the server sent it, in the client's offset encoding.
---@field text string The new text, line breaks as `\n`.
---@field command? lsp.Command Run through `workspace/executeCommand` once the edit is applied: the accept.
---@field item table The edit as the server sent it, for `textDocument/didShowInlineEdit`.
---@field span infill.EditSpan The range in bytes.

---@class infill.NextEditInflight
---@field client_id integer
---@field id integer
---@field seq integer
---@field bufnr integer

---@class infill.NextEditState
---@field edit? infill.NextEdit The edit shown.
---@field seq integer Number of the latest request; answers to older ones are ignored.
---@field inflight? infill.NextEditInflight
---@field timer? uv.uv_timer_t The debounce.
---@field waits integer Debounce periods the due request has waited for the ghost text.
---@field asked? { bufnr: integer, version: integer, row: integer } Where the last request that got an answer (or is still out) asked.
---@field dismissed? { bufnr: integer, version: integer } Where the user dismissed an edit: not asked again by itself until the text changes.
---@field unsupported table<integer, boolean> Clients whose server does not know the method.
local state = { seq = 0, waits = 0, unsupported = {} }
M.state = state

--- Are next edits on: suggestions enabled (`:Infill enable`) and `settings.nextEdit.enabled` set?
---@return boolean
function M.is_on()
  return lsp.state.enabled and config.next_edits_enabled()
end

--- The document version of `bufnr` as the LSP client last sent it, or nil.
---@param bufnr integer
---@return integer?
function M.version(bufnr)
  local version = vim.lsp.util.buf_versions[bufnr]
  return type(version) == "number" and version or nil
end

--- Is ghost text showing at the cursor?
---@return boolean
local function ghost_visible()
  return require("infill").is_visible()
end

--- Is the plugin's ghost text waiting for an answer?
---@return boolean
local function ghost_busy()
  local suggestion = not config.options.use_native and package.loaded["infill.suggestion"]
  return suggestion and suggestion.busy() or false
end

--- Clear the preview and forget the edit.
function M.hide()
  local edit = state.edit
  state.edit = nil
  if edit and api.nvim_buf_is_valid(edit.bufnr) then
    api.nvim_buf_clear_namespace(edit.bufnr, M.ns, 0, -1)
    api.nvim_buf_clear_namespace(edit.bufnr, M.hint_ns, 0, -1)
  end
end

--- Stop the debounce and cancel the request in flight (`$/cancelRequest`).
function M.cancel()
  if state.timer then
    state.timer:stop()
  end
  state.waits = 0
  local inflight = state.inflight
  state.inflight = nil
  state.seq = state.seq + 1
  if inflight then
    -- It never answered: the same place may be asked again.
    state.asked = nil
    lsp.cancel_request(inflight.client_id, inflight.id)
  end
end

--- Cancel and hide, without remembering a dismissal (the text changed, insert mode, ghost text, `:Infill disable`).
function M.reset()
  M.cancel()
  M.hide()
end

--- The edit shown, if it still applies to the buffer as it is now; one made for another version is dropped.
---@return infill.NextEdit?
function M.current()
  local edit = state.edit
  if edit and (not api.nvim_buf_is_valid(edit.bufnr) or M.version(edit.bufnr) ~= edit.version) then
    M.hide()
    return nil
  end
  return edit
end

--- Is a next edit shown in the current buffer?
---@return boolean
function M.is_visible()
  local edit = M.current()
  return edit ~= nil and edit.bufnr == api.nvim_get_current_buf()
end

---@param pos any
---@return boolean
local function is_position(pos)
  return type(pos) == "table" and type(pos.line) == "number" and type(pos.character) == "number"
end

--- An edit of the server's answer as it applies to `bufnr` at `version`, or nil when it does not: another
--- document, another version, or a range that is not in the buffer.
---@param item any One of the answer's `edits`.
---@param bufnr integer
---@param client_id integer
---@param encoding string The client's offset encoding.
---@param version integer The version the request was made at.
---@return infill.NextEdit?
function M.edit_from_item(item, bufnr, client_id, encoding, version)
  if type(item) ~= "table" or type(item.text) ~= "string" or type(item.range) ~= "table" then
    return nil
  end
  local doc = type(item.textDocument) == "table" and item.textDocument or {}
  if (doc.uri ~= nil and doc.uri ~= vim.uri_from_bufnr(bufnr)) or (doc.version or version) ~= version then
    return nil
  end
  local from, to = item.range.start, item.range["end"]
  if not is_position(from) or not is_position(to) then
    return nil
  end
  local line_count = api.nvim_buf_line_count(bufnr)
  local backwards = to.line < from.line or (to.line == from.line and to.character < from.character)
  if from.line < 0 or to.line > line_count or backwards then
    return nil
  end
  ---@param pos lsp.Position
  local function byte(pos)
    local line = api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, false)[1] or ""
    return position.to_byte(line, pos.character, encoding)
  end
  local text = item.text:gsub("\r\n?", "\n")
  return {
    bufnr = bufnr,
    client_id = client_id,
    version = version,
    range = item.range,
    text = text,
    command = type(item.command) == "table" and type(item.command.command) == "string" and item.command
      or nil,
    item = item,
    span = {
      start_row = from.line,
      start_col = byte(from),
      end_row = to.line,
      end_col = byte(to),
      text = text,
    },
  }
end

--- Say where the edit is when the current window does not show its first line: at the end of the window's first
--- line (edit above) or last line (edit below). Redrawn when the window scrolls, never while typing.
function M.update_hint()
  local edit = state.edit
  if not edit or not api.nvim_buf_is_valid(edit.bufnr) then
    return
  end
  api.nvim_buf_clear_namespace(edit.bufnr, M.hint_ns, 0, -1)
  local win = api.nvim_get_current_win()
  if api.nvim_win_get_buf(win) ~= edit.bufnr then
    return
  end
  local keymaps = config.options.keymaps
  local key = keymaps and type(keymaps.next_edit) == "string" and keymaps.next_edit or nil
  local top, bottom = vim.fn.line("w0", win) - 1, vim.fn.line("w$", win) - 1
  local hint = layout.offscreen_hint(edit.span.start_row, top, bottom, key)
  if hint then
    local sign = config.options.next_edit.sign
    api.nvim_buf_set_extmark(edit.bufnr, M.hint_ns, hint.row, 0, {
      virt_text = { { hint.text, layout.hl.hint } },
      virt_text_pos = "eol",
      sign_text = sign or nil,
      sign_hl_group = sign and layout.hl.sign or nil,
      priority = PRIORITY,
    })
  end
end

--- Draw the preview of `edit` and tell the server it is shown.
---@param edit infill.NextEdit
function M.show(edit)
  M.hide()
  local bufnr, span = edit.bufnr, edit.span
  local line_count = api.nvim_buf_line_count(bufnr)
  local lines =
    api.nvim_buf_get_lines(bufnr, span.start_row, math.min(span.end_row, line_count - 1) + 1, false)
  for _, mark in ipairs(layout.preview(span, lines, line_count, vim.bo[bufnr].tabstop)) do
    local opts = vim.tbl_extend("force", mark.opts, { priority = PRIORITY, strict = false })
    api.nvim_buf_set_extmark(bufnr, M.ns, mark.row, mark.col, opts)
  end
  local sign = config.options.next_edit.sign
  if sign then
    api.nvim_buf_set_extmark(bufnr, M.ns, math.min(span.start_row, line_count - 1), 0, {
      sign_text = sign,
      sign_hl_group = layout.hl.sign,
      priority = PRIORITY,
    })
  end
  state.edit = edit
  M.update_hint()
  local client = vim.lsp.get_client_by_id(edit.client_id)
  if client then
    lsp.notify(client, M.DID_SHOW, { item = edit.item })
  end
end

--- Handle the answer to request number `seq`: show its first edit that applies to the buffer as it is. No edit, an
--- error, or a server without next edits is silent (a server that does not know the method is not asked again).
---@param seq integer
---@param req { bufnr: integer, client_id: integer, encoding: string, version: integer }
---@param err? lsp.ResponseError
---@param result any
function M.on_result(seq, req, err, result)
  if seq ~= state.seq then
    return -- superseded, cancelled or dismissed
  end
  state.inflight = nil
  if err then
    if err.code == METHOD_NOT_FOUND then
      state.unsupported[req.client_id] = true
      lsp.log("client %d: the server does not answer %s: no next edits from it", req.client_id, M.METHOD)
    elseif err.code ~= REQUEST_CANCELLED and err.code ~= CONTENT_MODIFIED then
      lsp.log("%s failed: %s", M.METHOD, err.message or vim.inspect(err))
    end
    return
  end
  local bufnr = req.bufnr
  if
    not M.is_on()
    or bufnr ~= api.nvim_get_current_buf()
    or M.version(bufnr) ~= req.version
    or ghost_visible()
  then
    return
  end
  local edits = type(result) == "table" and type(result.edits) == "table" and result.edits or {}
  for _, item in ipairs(edits) do
    local edit = M.edit_from_item(item, bufnr, req.client_id, req.encoding, req.version)
    if edit then
      return M.show(edit)
    end
  end
end

--- Ask the server for the next edit at the cursor of the current buffer now.
---@param bufnr integer
---@return boolean sent
function M.request(bufnr)
  if bufnr ~= api.nvim_get_current_buf() or not M.is_on() then
    return false
  end
  local client = lsp.get_client(bufnr)
  local version = M.version(bufnr)
  if not client or state.unsupported[client.id] or not version then
    return false
  end
  M.cancel()
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  local encoding = client.offset_encoding or "utf-16"
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
    position = { line = row, character = position.to_character(line, col, encoding) },
  }
  local seq = state.seq
  local req = { bufnr = bufnr, client_id = client.id, encoding = encoding, version = version }
  local ok, id = lsp.request(
    client,
    M.METHOD,
    params,
    vim.schedule_wrap(function(err, result)
      M.on_result(seq, req, err, result)
    end),
    bufnr
  )
  if not ok then
    return false
  end
  state.asked = { bufnr = bufnr, version = version, row = row }
  if id and state.seq == seq then
    state.inflight = { client_id = client.id, id = id, seq = seq, bufnr = bufnr }
  end
  return true
end

--- The debounce is over: ask, unless there is nothing new to ask (an edit shown, the same place and version asked
--- or dismissed already), ghost text shows, or the ghost text's request is still out (then wait for it).
---@param bufnr integer
function M.due(bufnr)
  local mode = api.nvim_get_mode().mode
  if bufnr ~= api.nvim_get_current_buf() or (mode ~= "n" and mode ~= "i") or M.current() then
    return
  end
  if ghost_visible() then
    state.waits = 0
    return
  end
  if ghost_busy() then
    if state.waits < MAX_WAITS then
      state.waits = state.waits + 1
      M.schedule(bufnr)
    end
    return
  end
  state.waits = 0
  local version = M.version(bufnr)
  local row = api.nvim_win_get_cursor(0)[1] - 1
  local asked, dismissed = state.asked, state.dismissed
  if asked and asked.bufnr == bufnr and asked.version == version and asked.row == row then
    return
  end
  if dismissed and dismissed.bufnr == bufnr and dismissed.version == version then
    return
  end
  M.request(bufnr)
end

--- Ask once `next_edit.debounce` ms pass without another call (with `next_edit.auto_trigger`).
---@param bufnr integer
function M.schedule(bufnr)
  if not config.options.next_edit.auto_trigger or not M.is_on() then
    return
  end
  state.timer = state.timer or assert(vim.uv.new_timer())
  local timer = assert(state.timer)
  timer:stop()
  timer:start(
    config.options.next_edit.debounce,
    0,
    vim.schedule_wrap(function()
      M.due(bufnr)
    end)
  )
end

--- Where the cursor goes once `span` is applied: on the last character it wrote (after it in insert mode), on the
--- last line it wrote when it ends with a line break.
---@param span infill.EditSpan
---@param insert boolean
---@return integer row, integer col 0-based
function M.cursor_after(span, insert)
  local new = vim.split(span.text, "\n", { plain = true })
  local n = #new
  if n > 1 and new[n] == "" then
    n = n - 1
  end
  local row = span.start_row + n - 1
  local col = (n == 1 and span.start_col or 0) + #new[n]
  if not insert and #new[n] > 0 then
    col = col - 1
  end
  return row, col
end

--- Apply `edit`, run its command (the server counts the accept), and ask again at once: the server answers the rest
--- of the same change from memory.
---@param edit infill.NextEdit
---@return boolean applied
function M.apply(edit)
  local client = vim.lsp.get_client_by_id(edit.client_id)
  M.reset()
  if not client then
    return false
  end
  local bufnr = edit.bufnr
  vim.lsp.util.apply_text_edits(
    { { range = edit.range, newText = edit.text } },
    bufnr,
    client.offset_encoding
  )
  local row, col = M.cursor_after(edit.span, api.nvim_get_mode().mode == "i")
  row = math.min(row, api.nvim_buf_line_count(bufnr) - 1)
  api.nvim_win_set_cursor(0, { row + 1, math.max(col, 0) })
  local command = edit.command
  if command then
    local params = { command = command.command, arguments = command.arguments }
    lsp.request(client, "workspace/executeCommand", params, function(err)
      if err then
        lsp.log("%s failed: %s", command.command, err.message or vim.inspect(err))
      end
    end, bufnr)
  end
  M.request(bufnr)
  return true
end

--- The key: jump to the edit shown; when the cursor is on its lines already, apply it.
---@return boolean acted `false` when no edit is shown.
function M.jump_or_apply()
  local edit = M.current()
  local bufnr = api.nvim_get_current_buf()
  if not edit or edit.bufnr ~= bufnr then
    return false
  end
  local row = api.nvim_win_get_cursor(0)[1] - 1
  local first, last = layout.rows(edit.span)
  if row >= first and row <= last then
    return M.apply(edit)
  end
  local target = math.min(edit.span.start_row, api.nvim_buf_line_count(bufnr) - 1)
  if api.nvim_get_mode().mode == "n" then
    vim.cmd("normal! m'") -- <C-o> goes back
  end
  api.nvim_win_set_cursor(0, { target + 1, edit.span.start_col })
  return true
end

--- Hide the edit shown and cancel the request in flight; the same version is not asked again by itself.
---@return boolean was_visible
function M.dismiss()
  local edit = M.current()
  M.reset()
  if edit then
    state.dismissed = { bufnr = edit.bufnr, version = edit.version }
  end
  return edit ~= nil
end

--- Ask now (the manual trigger): ghost text at the cursor gives way, and an edit shown is replaced by the answer.
---@return boolean sent
function M.suggest()
  if not M.is_on() then
    return false
  end
  if ghost_visible() then
    require("infill").dismiss()
  end
  M.hide()
  return M.request(api.nvim_get_current_buf())
end

local group = api.nvim_create_augroup("infill.next_edit", { clear = true })

--- Follow `bufnr` (the infill client attached to it, with next edits on): ask after typing pauses and on cursor
--- moves in normal mode, drop a stale preview on each change.
---@param bufnr integer
function M.attach(bufnr)
  api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  api.nvim_create_autocmd({ "TextChanged", "TextChangedI", "InsertLeave" }, {
    group = group,
    buffer = bufnr,
    callback = function(args)
      M.current()
      M.schedule(args.buf)
    end,
  })
  api.nvim_create_autocmd("TextChangedP", {
    group = group,
    buffer = bufnr,
    callback = function()
      M.current()
    end,
  })
  api.nvim_create_autocmd("CursorMoved", {
    group = group,
    buffer = bufnr,
    callback = function(args)
      if not M.current() then
        M.schedule(args.buf)
      end
    end,
  })
  api.nvim_create_autocmd({ "InsertEnter", "BufLeave" }, {
    group = group,
    buffer = bufnr,
    callback = M.reset,
  })
end

-- The off-screen hint follows the window, whichever buffer's autocmds are set.
api.nvim_create_autocmd("WinScrolled", {
  group = group,
  callback = function()
    if state.edit then
      M.update_hint()
    end
  end,
})

--- Stop following `bufnr` (the client detached).
---@param bufnr integer
function M.detach(bufnr)
  api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  if (state.edit and state.edit.bufnr == bufnr) or (state.inflight and state.inflight.bufnr == bufnr) then
    M.reset()
  end
end

return M
