---@brief Ghost text: asking for inline completions, showing them as virtual text, type-through, accepting.

local config = require("infill.config")
local lsp = require("infill.lsp")
local position = require("infill.position")
local tabs = require("infill.tabs")
local throttle = require("infill.throttle")
local type_through = require("infill.type_through")

local M = {}

--- Namespace of the ghost-text extmarks.
M.ns = vim.api.nvim_create_namespace("infill.suggestion")

local api = vim.api
local TRIGGER_INVOKED = 1
local TRIGGER_AUTOMATIC = 2
local REQUEST_CANCELLED = -32800
local CONTENT_MODIFIED = -32801
--- Least time between two redraws for a streaming suggestion's new lines, in ms.
local PARTIAL_REDRAW_MS = 30

---@class infill.Item: infill.Anchored
---@field client_id integer
---@field command? lsp.Command The item's command: `infill.accepted`, run (by `infill.usage`) when it is taken.

---@class infill.View: infill.Remainder
---@field bufnr integer
---@field row integer Cursor row (0-based).
---@field col integer Cursor byte column (0-based).

---@class infill.Inflight
---@field client_id integer
---@field id integer
---@field seq integer
---@field bufnr integer
---@field row integer Row of the request's cursor (0-based).
---@field col integer Byte column of the request's cursor (0-based).
---@field req infill.Request What the answer's items are read against.
---@field token? string The request's `partialResultToken`, when it asked for partial results.

---@alias infill.Request { row: integer, col: integer, line: string, encoding: string, client_id: integer }

---@class infill.SuggestionState
---@field bufnr? integer Buffer the items belong to.
---@field items infill.Item[] Suggestions from the last answer.
---@field index integer The one shown.
---@field shown? infill.View What is on screen.
---@field seq integer Number of the latest request; answers to older ones are ignored.
---@field inflight? infill.Inflight
---@field timer? uv.uv_timer_t Client-side debounce.
---@field pending boolean A debounced request is waiting to be sent.
---@field partial? { seq: integer, items: infill.Item[] } The latest partial result, waiting for its redraw.
---@field partial_shown? integer Number of the request whose partial result is on screen.
local state = { items = {}, index = 1, seq = 0, pending = false }
M.state = state

--- Positions (1-based) in `text` of the characters of `replaced`, matched from the right, so the existing
--- characters a suggestion covers (an auto-paired `)`) show where the suggestion has them. Nil if they don't all
--- appear in order.
---@param text string
---@param replaced string
---@return integer[]?
local function interleave(text, replaced)
  local positions, i = {}, #text
  for k = #replaced, 1, -1 do
    local c = replaced:sub(k, k)
    while i >= 1 and text:sub(i, i) ~= c do
      i = i - 1
    end
    if i < 1 then
      return nil
    end
    positions[k] = i
    i = i - 1
  end
  return positions
end

--- Clear the ghost text (the suggestion stays in memory).
function M.hide()
  if state.shown and api.nvim_buf_is_valid(state.shown.bufnr) then
    api.nvim_buf_clear_namespace(state.shown.bufnr, M.ns, 0, -1)
  end
  state.shown = nil
end

--- Draw `view`: the first line inline at the cursor, the others as virtual lines below it.
---@param view infill.View
function M.render(view)
  M.hide()
  local bufnr, row, col = view.bufnr, view.row, view.col
  local hl = config.options.highlight
  local tabstop = vim.bo[bufnr].tabstop
  local lines = vim.split(view.text, "\n", { plain = true })
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  local replaced = line:sub(col + 1, col + view.replace)
  local first = lines[1]

  ---@type { col: integer, text: string }[]
  local segments = { { col = col, text = first } }
  local positions = #replaced > 0 and interleave(first, replaced) or nil
  if positions then
    segments = {}
    local from = 1
    for k, p in ipairs(positions) do
      table.insert(segments, { col = col + k - 1, text = first:sub(from, p - 1) })
      from = p + 1
    end
    table.insert(segments, { col = col + #replaced, text = first:sub(from) })
  end

  local virt_lines = {}
  for i = 2, #lines do
    table.insert(virt_lines, { { tabs.expand(lines[i], 0, tabstop), hl } })
  end
  local start_display = vim.fn.strdisplaywidth(line:sub(1, col))
  for i, segment in ipairs(segments) do
    ---@type vim.api.keyset.set_extmark
    local opts = { virt_text_pos = "inline", hl_mode = "combine", priority = 200 }
    if segment.text ~= "" then
      opts.virt_text = { { tabs.expand(segment.text, start_display, tabstop), hl } }
    end
    if i == 1 and #virt_lines > 0 then
      opts.virt_lines = virt_lines
    end
    if opts.virt_text or opts.virt_lines then
      api.nvim_buf_set_extmark(bufnr, M.ns, row, segment.col, opts)
    end
  end
  if #replaced > 0 and not positions then
    -- The replaced characters (a closer that the suggestion puts on a later line) are blanked out, so the screen
    -- shows what accepting will leave.
    api.nvim_buf_set_extmark(bufnr, M.ns, row, col, {
      virt_text = { { (" "):rep(vim.fn.strdisplaywidth(replaced)), "Normal" } },
      virt_text_pos = "overlay",
      hl_mode = "combine",
      priority = 200,
    })
  end
  state.shown = view
  -- One or the other: ghost text at the cursor takes the place of a next edit.
  local next_edit = package.loaded["infill.next_edit"]
  if next_edit then
    next_edit.reset()
  end
end

--- The current suggestion as it applies to the buffer and cursor now, or nil.
---@return infill.View?
function M.view()
  local item = state.items[state.index]
  local bufnr = api.nvim_get_current_buf()
  if not item or bufnr ~= state.bufnr then
    return nil
  end
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local now = type_through.read(bufnr, item, row, col)
  local rest = now and type_through.remainder(item, now)
  if not rest then
    return nil
  end
  return { bufnr = bufnr, row = row, col = col, text = rest.text, replace = rest.replace }
end

--- Show what is left of the current suggestion after the latest edit or cursor move, or hide it. A suggestion drawn
--- is reported to the server (`infill.shown`, once per suggestion), which counts it shown.
function M.refresh()
  local view = M.view()
  if view then
    M.render(view)
    local item = state.items[state.index]
    if item then
      require("infill.usage").report_shown(item.client_id, item.command)
    end
  else
    M.hide()
  end
end

--- Stop the pending debounce and the request in flight.
---@param superseded? boolean A newer request for the same buffer follows at once: no `$/cancelRequest`, the server
--- answers the old one when the new one arrives (and may hand its upstream stream over to it).
function M.cancel(superseded)
  if state.timer then
    state.timer:stop()
  end
  state.pending = false
  local inflight = state.inflight
  state.inflight = nil
  state.seq = state.seq + 1
  if inflight and not superseded then
    lsp.cancel_request(inflight.client_id, inflight.id)
  end
end

--- Forget the suggestion, cancel requests and clear the ghost text.
---@return boolean was_visible
function M.dismiss()
  local visible = state.shown ~= nil
  M.cancel()
  state.items = {}
  state.index = 1
  M.hide()
  return visible
end

---@param insert_text string|{ value: string }|nil
---@return string?
local function plain_text(insert_text)
  if type(insert_text) == "string" then
    return insert_text
  elseif type(insert_text) == "table" and type(insert_text.value) == "string" then
    -- A snippet: our server never sends one; show its text as is rather than nothing.
    return insert_text.value
  end
  return nil
end

--- Turn an answer's items into anchored suggestions on the request's line.
---@param result any InlineCompletionList or InlineCompletionItem[]
---@param req infill.Request
---@return infill.Item[]
function M.items_from_result(result, req)
  local raw = type(result) == "table" and (result.items or result) or {}
  local items = {}
  for _, entry in ipairs(raw) do
    local text = plain_text(entry.insertText)
    local range = entry.range
    local start_col, end_col = req.col, req.col
    local usable = text ~= nil and text ~= ""
    if usable and range then
      usable = range.start.line == req.row and range["end"].line == req.row
      start_col = position.to_byte(req.line, range.start.character, req.encoding)
      end_col = position.to_byte(req.line, range["end"].character, req.encoding)
      usable = usable and start_col <= req.col and end_col >= req.col
    end
    if usable then
      ---@cast text string
      table.insert(items, {
        row = req.row,
        col = start_col,
        prefix = req.line:sub(1, start_col),
        rest = req.line:sub(start_col + 1),
        text = text,
        replace = end_col - start_col,
        client_id = req.client_id,
        command = entry.command,
      })
    else
      lsp.log("ignored an inline completion item: %s", vim.inspect(entry, { newline = " ", indent = "" }))
    end
  end
  return items
end

--- Ask the server for a suggestion at the cursor now.
---@param bufnr? integer
---@param trigger? integer InlineCompletionTriggerKind (1 invoked, 2 automatic). Default 1.
---@return boolean sent
function M.request(bufnr, trigger)
  bufnr = bufnr or api.nvim_get_current_buf()
  if bufnr ~= api.nvim_get_current_buf() then
    return false
  end
  local client = lsp.get_client(bufnr)
  if not client or not lsp.state.enabled then
    return false
  end
  -- A block still streaming here is superseded rather than cancelled: a cancel, then the request, would leave the
  -- server a moment with nobody waiting for the stream, and it aborts such streams.
  local inflight = state.inflight
  M.cancel(inflight ~= nil and inflight.bufnr == bufnr and state.partial_shown == inflight.seq)
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  local encoding = client.offset_encoding or "utf-16"
  local req = { row = row, col = col, line = line, encoding = encoding, client_id = client.id }
  local seq = state.seq
  -- Declared in the client's capabilities (infill.lsp) when `stream` is on.
  local token = config.options.stream and ("infill-%d"):format(seq) or nil
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = row, character = position.to_character(line, col, encoding) },
    context = { triggerKind = trigger or TRIGGER_INVOKED },
    partialResultToken = token,
  }
  local ok, id = lsp.request(
    client,
    "textDocument/inlineCompletion",
    params,
    vim.schedule_wrap(function(err, result)
      M.on_result(seq, bufnr, req, err, result)
    end),
    bufnr
  )
  if ok and id then
    -- The answer may already have been handled if the transport answered synchronously.
    if state.seq == seq then
      state.inflight = {
        client_id = client.id,
        id = id,
        seq = seq,
        bufnr = bufnr,
        row = row,
        col = col,
        req = req,
        token = token,
      }
    end
    return true
  end
  return false
end

--- Handle the answer to request number `seq`.
---@param seq integer
---@param bufnr integer
---@param req infill.Request
---@param err? lsp.ResponseError
---@param result any
function M.on_result(seq, bufnr, req, err, result)
  if seq ~= state.seq then
    return -- superseded, cancelled or dismissed
  end
  state.inflight = nil
  M.redraw_partial.cancel()
  state.partial = nil
  if err then
    if err.code ~= REQUEST_CANCELLED and err.code ~= CONTENT_MODIFIED then
      lsp.log("inlineCompletion failed: %s", err.message or vim.inspect(err))
    end
    return
  end
  if not api.nvim_buf_is_valid(bufnr) or not lsp.state.enabled then
    return
  end
  local items = M.items_from_result(result, req)
  if #items == 0 and state.partial_shown == seq then
    -- The stream failed after lines were shown: they stay (a line once shown is only taken back by typing).
    return
  end
  state.bufnr = bufnr
  state.items = items
  state.index = 1
  M.refresh()
end

--- Show the latest partial result (throttled: see `M.redraw_partial`), unless its request has been answered,
--- cancelled or superseded since it arrived.
local function draw_partial()
  local partial, inflight = state.partial, state.inflight
  state.partial = nil
  if not partial or not inflight or partial.seq ~= state.seq or not api.nvim_buf_is_valid(inflight.bufnr) then
    return
  end
  state.bufnr = inflight.bufnr
  state.items = partial.items
  state.index = 1
  state.partial_shown = partial.seq
  M.refresh()
end

--- Redraws for partial results, at most one per 30 ms; the answer draws at once and drops a pending one.
M.redraw_partial = throttle.new(PARTIAL_REDRAW_MS, draw_partial)

--- A partial result (`$/infill/partial`): the lines of a block settled so far, for the request in flight. They
--- are drawn like an answer's items, so accepting takes what is shown; later ones extend them.
---@param params { token: string|integer, items: table[] }
---@param client_id integer
function M.on_partial(params, client_id)
  local inflight = state.inflight
  if type(params) ~= "table" or not inflight or inflight.token == nil then
    return
  end
  if params.token ~= inflight.token or client_id ~= inflight.client_id or not lsp.state.enabled then
    return
  end
  local items = M.items_from_result(params, inflight.req)
  if #items > 0 then
    state.partial = { seq = inflight.seq, items = items }
    M.redraw_partial.call()
  end
end

--- Ask after `debounce` ms of quiet, if still in insert mode in the same buffer.
---@param bufnr integer
function M.schedule_request(bufnr)
  state.timer = state.timer or vim.uv.new_timer()
  local timer = assert(state.timer)
  timer:stop()
  state.pending = true
  timer:start(
    config.options.debounce,
    0,
    vim.schedule_wrap(function()
      if not state.pending then
        return
      end
      state.pending = false
      if api.nvim_get_current_buf() == bufnr and api.nvim_get_mode().mode:sub(1, 1) == "i" then
        M.request(bufnr, TRIGGER_AUTOMATIC)
      end
    end)
  )
end

--- Is a next edit shown in this buffer?
---@return boolean
local function next_edit_shown()
  local next_edit = package.loaded["infill.next_edit"]
  return next_edit ~= nil and next_edit.is_visible()
end

--- Text typed or cursor moved in insert mode: follow the suggestion from memory, then ask again. A cursor moved while
--- a next edit is shown (to go to it) asks nothing: the ghost text would take the next edit's place.
---@param bufnr integer
---@param event? string The autocmd's event.
function M.on_insert_change(bufnr, event)
  if not lsp.state.enabled then
    return
  end
  M.refresh()
  if config.options.auto_trigger and not (event == "CursorMovedI" and next_edit_shown()) then
    M.schedule_request(bufnr)
  end
end

---@param text string
---@return string
local function next_word(text)
  return text:match("^%s*[%w_\128-\255]+") or text:match("^%s*[^%s%w_\128-\255]+") or text
end

---@param text string
---@return string
local function next_line(text)
  local line = text:match("^[^\n]*")
  if line:find("%S") then
    return line
  end
  -- Nothing left on this line: take the line break and the next line.
  return text:match("^[^\n]*\n[^\n]*") or text
end

M.next_word = next_word
M.next_line = next_line

---@param pick fun(text: string): string
---@return boolean inserted
local function accept_with(pick)
  local view = M.view()
  if not view then
    return false
  end
  local whole = pick == nil
  local chunk = whole and view.text or pick(view.text)
  if chunk == "" then
    return false
  end
  local after = view.text:sub(#chunk + 1)
  -- The replaced characters (an auto-paired closer) go once the chunk completes the suggestion's first line.
  local replace = (after == "" or after:sub(1, 1) == "\n" or after:sub(1, 2) == "\r\n") and view.replace or 0
  local lines = vim.split(chunk, "\n", { plain = true })
  local item = state.items[state.index]
  -- A block still streaming keeps coming after what was taken, like after typing it: the next request follows it.
  local inflight = state.inflight
  local streaming = inflight ~= nil and state.partial_shown == inflight.seq
  if not streaming then
    M.cancel()
  end
  M.hide()
  api.nvim_buf_set_text(view.bufnr, view.row, view.col, view.row, view.col + replace, lines)
  local end_row = view.row + #lines - 1
  local end_col = (#lines == 1 and view.col or 0) + #lines[#lines]
  api.nvim_win_set_cursor(0, { end_row + 1, end_col })
  if item then
    require("infill.usage").report(item.client_id, item.command, after)
  end
  if whole and not streaming then
    state.items = {}
    state.index = 1
  else
    M.refresh()
  end
  return true
end

--- Insert the whole suggestion at its range and put the cursor after it.
---@return boolean inserted
function M.accept()
  return accept_with(nil)
end

--- Insert the next word of the suggestion.
---@return boolean inserted
function M.accept_word()
  return accept_with(next_word)
end

--- Insert the rest of the suggestion's current line.
---@return boolean inserted
function M.accept_line()
  return accept_with(next_line)
end

---@param step integer
---@return boolean moved
local function cycle(step)
  local n = #state.items
  if n < 2 or not state.shown then
    return false
  end
  state.index = (state.index - 1 + step) % n + 1
  M.refresh()
  return true
end

--- Show the next suggestion (when the last answer had several).
---@return boolean moved
function M.next()
  return cycle(1)
end

--- Show the previous suggestion.
---@return boolean moved
function M.prev()
  return cycle(-1)
end

--- Is a request waiting (debounced) or in flight?
---@return boolean
function M.busy()
  return state.pending or state.inflight ~= nil
end

--- Is ghost text on screen?
---@return boolean
function M.is_visible()
  return state.shown ~= nil and state.shown.bufnr == api.nvim_get_current_buf()
end

--- Ask for a suggestion at the cursor now (insert or normal mode).
---@return boolean sent
function M.suggest()
  return M.request(api.nvim_get_current_buf(), TRIGGER_INVOKED)
end

--- Is (`row`, `col`) before (`anchor_row`, `anchor_col`)? A nil `row` is the whole buffer, before everything.
---@param row? integer
---@param col integer
---@param anchor_row integer
---@param anchor_col integer
---@return boolean
local function before(row, col, anchor_row, anchor_col)
  return row == nil or row < anchor_row or (row == anchor_row and col < anchor_col)
end

--- `bufnr` changed from (`row`, `col`) on (0-based, bytes; a nil `row`: all of it, a reload). Typing at or after
--- the suggestion's anchor is type-through; a change before it (an edit above, an auto-import, a line joined)
--- moves or alters the text the suggestion was made for, so the remembered suggestion is dropped and the answer to
--- a request made before the change is ignored, like the server's `didChange` does. Runs inside
--- `nvim_buf_attach`'s `on_bytes`, so the ghost text is cleared once the change is done.
---@param bufnr integer
---@param row? integer
---@param col integer
function M.on_change(bufnr, row, col)
  if state.bufnr == bufnr then
    for _, item in ipairs(state.items) do
      if before(row, col, item.row, item.col) then
        state.items = {}
        state.index = 1
        vim.schedule(function()
          if state.shown and state.shown.bufnr == bufnr then
            M.refresh()
          end
        end)
        break
      end
    end
  end
  local inflight = state.inflight
  if inflight and inflight.bufnr == bufnr and before(row, col, inflight.row, inflight.col) then
    -- The server drops it too; forgetting it here (rather than cancelling, which fires autocmds) is enough.
    state.inflight = nil
    state.seq = state.seq + 1
  end
end

--- Token of the live `nvim_buf_attach` of each buffer followed; a callback whose token is no longer there
--- detaches itself.
---@type table<integer, table>
local watching = {}

---@param bufnr integer
local function watch(bufnr)
  if watching[bufnr] then
    return
  end
  local token = {}
  local ok = api.nvim_buf_attach(bufnr, false, {
    on_bytes = function(_, buf, _, start_row, start_col)
      if watching[buf] ~= token then
        return true
      end
      M.on_change(buf, start_row, start_col)
    end,
    on_reload = function(_, buf)
      if watching[buf] == token then
        M.on_change(buf, nil, 0)
      end
    end,
    on_detach = function(_, buf)
      if watching[buf] == token then
        watching[buf] = nil
      end
    end,
  })
  if ok then
    watching[bufnr] = token
  end
end

local group = api.nvim_create_augroup("infill.suggestion", { clear = true })

--- Follow insert-mode typing in `bufnr` (called when the infill client attaches to it).
---@param bufnr integer
function M.attach(bufnr)
  watch(bufnr)
  api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  api.nvim_create_autocmd({ "InsertEnter", "TextChangedI", "TextChangedP", "CursorMovedI" }, {
    group = group,
    buffer = bufnr,
    callback = function(args)
      M.on_insert_change(args.buf, args.event)
    end,
  })
  api.nvim_create_autocmd({ "CursorMoved", "TextChanged" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      if state.shown then
        M.refresh()
      end
    end,
  })
  api.nvim_create_autocmd({ "InsertLeave", "BufLeave" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.dismiss()
    end,
  })
end

--- Stop following `bufnr` (the client detached).
---@param bufnr integer
function M.detach(bufnr)
  watching[bufnr] = nil
  api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  if state.bufnr == bufnr then
    M.dismiss()
  end
end

return M
