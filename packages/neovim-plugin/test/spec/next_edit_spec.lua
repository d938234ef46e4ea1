-- Next edits against a fake server in this Neovim (a real LSP client named "infill" whose `cmd` is a Lua function):
-- when the plugin asks, what it shows, the keys, dismissal, stale edits, and staying out of the ghost text's way.
local h = require("helpers")
local config = require("infill.config")
local keymaps = require("infill.keymaps")
local lsp = require("infill.lsp")
local next_edit = require("infill.next_edit")
local suggestion = require("infill.suggestion")

local METHOD = next_edit.METHOD

--- The fake server: records every request and notification; answers `textDocument/copilotInlineEdit` with
--- `server.respond(params)` (err, result) on the next turn of the loop, or holds it while `respond` is nil (then
--- `$/cancelRequest` answers it as cancelled).
local server = { requests = {}, notifications = {}, pending = {} }

function server.cmd()
  local closing, last_id = false, 0
  local function reply(id, callback, notify_reply, err, result)
    vim.schedule(function()
      callback(err, result)
      if notify_reply then
        notify_reply(id)
      end
    end)
  end
  return {
    request = function(method, params, callback, notify_reply)
      last_id = last_id + 1
      local id = last_id
      table.insert(server.requests, { method = method, params = params, id = id })
      if method == "initialize" then
        reply(id, callback, notify_reply, nil, {
          capabilities = { textDocumentSync = { openClose = true, change = 2 } },
          serverInfo = { name = "fake", version = "0" },
        })
      elseif method == METHOD and server.respond then
        reply(id, callback, notify_reply, server.respond(params))
      elseif method == METHOD then
        server.pending[id] = function(err, result)
          reply(id, callback, notify_reply, err, result)
        end
      else
        reply(id, callback, notify_reply, nil, vim.NIL)
      end
      return true, id
    end,
    notify = function(method, params)
      table.insert(server.notifications, { method = method, params = params })
      if method == "$/cancelRequest" and server.pending[params.id] then
        server.pending[params.id]({ code = -32800, message = "cancelled" })
        server.pending[params.id] = nil
      elseif method == "exit" then
        closing = true
      end
      return true
    end,
    is_closing = function()
      return closing
    end,
    terminate = function()
      closing = true
    end,
  }
end

--- The requests of `method` the server got since the test began.
local function requests(method)
  return vim.tbl_filter(function(r)
    return r.method == method
  end, server.requests)
end

local function notifications(method)
  return vim.tbl_filter(function(n)
    return n.method == method
  end, server.notifications)
end

--- An edit as the server sends it.
local function item(bufnr, version, sl, sc, el, ec, text, command)
  return {
    range = { start = { line = sl, character = sc }, ["end"] = { line = el, character = ec } },
    text = text,
    textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
    command = command,
  }
end

local dir = h.project("next-edit")
local n = 0
local bufnr

--- A file holding `lines` with the cursor at `cursor`, served by the fake client, followed by the next-edit module.
local function open(lines, cursor)
  n = n + 1
  bufnr = h.edit(("%s/f%d.lua"):format(dir, n), lines, cursor)
  vim.lsp.start({ name = lsp.name, cmd = server.cmd, root_dir = dir }, { bufnr = bufnr })
  h.wait_for(function()
    local client = lsp.get_client(bufnr)
    return client and client.initialized and next_edit.version(bufnr)
  end, 5000, "the fake client attached")
  next_edit.attach(bufnr)
  return bufnr
end

local function marks(ns)
  return vim.api.nvim_buf_get_extmarks(bufnr, ns or next_edit.ns, 0, -1, { details = true })
end

local function lines()
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

--- Ask now and wait until the edit of the answer is shown.
local function show()
  h.ok(next_edit.suggest(), "a request sent")
  h.wait_for(next_edit.is_visible, 5000, "the next edit shown")
end

local RENAME = {
  "local total = 0",
  "for _, x in ipairs(xs) do",
  "  total = total + x",
  '  print("é", total)',
  "end",
}

describe("next edits", function()
  before_each(function()
    config.setup({ settings = { nextEdit = { enabled = true } }, next_edit = { debounce = 30 } })
    lsp.state.enabled = true
    keymaps.set(config.options.keymaps, true)
    server.requests, server.notifications, server.pending, server.respond = {}, {}, {}, nil
    next_edit.state.asked, next_edit.state.dismissed = nil, nil
  end)
  after_each(function()
    if vim.api.nvim_get_mode().mode ~= "n" then
      h.escape()
    end
    next_edit.reset()
    suggestion.dismiss()
    vim.cmd("silent! bwipeout! " .. bufnr)
  end)

  it("asks at the cursor with the document's version, in the client's encoding", function()
    open(RENAME, { 4, 11 }) -- after `  print("é`: 11 bytes, 10 UTF-16 units
    h.ok(next_edit.suggest())
    local sent = requests(METHOD)
    h.eq(1, #sent)
    h.eq({
      textDocument = { uri = vim.uri_from_bufnr(bufnr), version = next_edit.version(bufnr) },
      position = { line = 3, character = 10 },
    }, sent[1].params)
  end)

  it("shows the first edit of the answer and tells the server it is shown", function()
    open(RENAME, { 1, 0 })
    server.respond = function(params)
      local v = params.textDocument.version
      return nil, { edits = { item(bufnr, v, 2, 2, 2, 7, "sum", { command = "c", arguments = { 1 } }) } }
    end
    show()
    local got = vim.tbl_map(function(m)
      return { m[2], m[3], m[4].hl_group or m[4].virt_text[1][1] }
    end, marks())
    table.sort(got, function(a, b)
      return a[2] < b[2]
    end)
    h.eq({ { 2, 2, "InfillNextEditDelete" }, { 2, 7, "sum" } }, got)
    local shown = notifications(next_edit.DID_SHOW)
    h.eq(1, #shown)
    h.eq(
      item(bufnr, next_edit.version(bufnr), 2, 2, 2, 7, "sum", { command = "c", arguments = { 1 } }),
      shown[1].params.item
    )
  end)

  it("shows nothing and says nothing for {edits: []}, an error, or an edit for another version", function()
    local calls = h.capture_notify()
    open(RENAME, { 1, 0 })
    local answers = {
      function()
        return nil, { edits = {} }
      end,
      function()
        return { code = -32603, message = "upstream failed" }, nil
      end,
      function(params)
        return nil, { edits = { item(bufnr, params.textDocument.version - 1, 0, 6, 0, 11, "sum") } }
      end,
    }
    for i, answer in ipairs(answers) do
      local answered = false
      server.respond = function(params)
        answered = true
        return answer(params)
      end
      h.ok(next_edit.suggest())
      h.wait_for(function()
        return answered and next_edit.state.inflight == nil
      end, 5000, "answer " .. i)
      h.eq({}, marks(), "answer " .. i)
      h.eq({}, notifications(next_edit.DID_SHOW), "answer " .. i)
    end
    h.eq({}, calls, "vim.notify calls")
  end)

  it("a server that does not know the method is not asked again", function()
    open(RENAME, { 1, 0 })
    server.respond = function()
      return { code = -32601, message = "Unhandled method" }, nil
    end
    h.ok(next_edit.suggest())
    local client_id = lsp.get_client(bufnr).id
    h.wait_for(function()
      return next_edit.state.unsupported[client_id]
    end, 5000, "the client marked")
    h.eq(false, next_edit.suggest())
    h.eq(1, #requests(METHOD))
    next_edit.state.unsupported[client_id] = nil
  end)

  it(
    "the key jumps to the edit, then applies it with the client's encoding, runs its command and asks again",
    function()
      open(RENAME, { 1, 0 })
      local command = { title = "accept", command = "infill.nextEditAccepted", arguments = { { id = "e1" } } }
      server.respond = function(params)
        local v = params.textDocument.version
        if #requests(METHOD) == 1 then
          -- `total` after `print("é", `: UTF-16 columns 13-18, bytes 14-19.
          return nil, { edits = { item(bufnr, v, 3, 13, 3, 18, "sum", command) } }
        end
        return nil, { edits = { item(bufnr, v, 0, 6, 0, 11, "sum") } }
      end
      show()
      h.input("<M-n>", function()
        return vim.api.nvim_win_get_cursor(0)[1] == 4
      end, "the cursor on the edit's line")
      h.eq({ 4, 14 }, vim.api.nvim_win_get_cursor(0))
      h.eq(RENAME, lines(), "nothing applied yet")
      h.ok(next_edit.is_visible(), "still shown after the jump")
      local before = #server.requests
      h.input("<M-n>", function()
        return lines()[4] == '  print("é", sum)'
      end, "the edit applied")
      h.eq({ 4, 16 }, vim.api.nvim_win_get_cursor(0), "on the last character written")
      local after = vim.list_slice(server.requests, before + 1)
      h.eq(
        { "workspace/executeCommand", METHOD },
        vim.tbl_map(function(r)
          return r.method
        end, after),
        "the accept, then the next request at once"
      )
      h.eq({ command = command.command, arguments = command.arguments }, after[1].params)
      h.eq(next_edit.version(bufnr), after[2].params.textDocument.version)
      h.wait_for(next_edit.is_visible, 5000, "the rest of the rename shown")
      h.input("<M-n>", function()
        return vim.api.nvim_win_get_cursor(0)[1] == 1
      end, "the jump to the declaration")
      h.input("<M-n>", function()
        return lines()[1] == "local sum = 0"
      end, "the second edit applied")
      h.input("<C-o>", function()
        return vim.api.nvim_win_get_cursor(0)[1] == 4
      end, "<C-o> back where the jump started")
    end
  )

  it("with the cursor on the edit's lines, the key applies it at once (insert mode too)", function()
    open({ "a = 1", "b = a" }, { 2, 0 })
    server.respond = function(params)
      return nil, { edits = { item(bufnr, params.textDocument.version, 1, 4, 1, 5, "a + 1") } }
    end
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    show()
    h.input("<M-n>", function()
      return lines()[2] == "b = a + 1"
    end, "applied from insert mode")
    h.eq("i", vim.api.nvim_get_mode().mode)
    h.eq({ 2, 9 }, vim.api.nvim_win_get_cursor(0), "after what was written")
  end)

  it("whole lines: the cursor lands on the last line written", function()
    h.eq({ 2, 3 }, {
      next_edit.cursor_after(
        { start_row = 1, start_col = 0, end_row = 1, end_col = 0, text = "x\nabcd\n" },
        false
      ),
    })
    h.eq(
      { 0, 4 },
      { next_edit.cursor_after({ start_row = 0, start_col = 4, end_row = 0, end_col = 6, text = "" }, false) }
    )
    h.eq({ 0, 7 }, {
      next_edit.cursor_after({ start_row = 0, start_col = 4, end_row = 0, end_col = 6, text = "abc" }, true),
    })
  end)

  it("a change under the preview drops it, and the key does what it did before", function()
    config.setup({ settings = { nextEdit = { enabled = true } }, next_edit = { auto_trigger = false } })
    open(RENAME, { 1, 0 })
    server.respond = function(params)
      return nil, { edits = { item(bufnr, params.textDocument.version, 2, 2, 2, 7, "sum") } }
    end
    show()
    vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { "end -- done" })
    h.eq(false, next_edit.is_visible(), "the version moved on")
    h.eq(false, next_edit.jump_or_apply())
    h.wait_for(function()
      return #marks() == 0
    end, 5000, "the preview cleared")
    h.eq({ 1, 0 }, vim.api.nvim_win_get_cursor(0))
  end)

  it("an answer that arrives after the buffer changed is not shown", function()
    config.setup({ settings = { nextEdit = { enabled = true } }, next_edit = { auto_trigger = false } })
    open(RENAME, { 1, 0 })
    h.ok(next_edit.suggest())
    local id, respond = next(server.pending)
    h.ok(id, "the request held")
    local version = requests(METHOD)[1].params.textDocument.version
    vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { "end -- done" })
    respond(nil, { edits = { item(bufnr, version, 2, 2, 2, 7, "sum") } })
    h.wait_for(function()
      return next_edit.state.inflight == nil
    end, 5000, "the answer handled")
    h.eq({}, marks())
  end)

  it("dismiss hides it and cancels; the same version is not asked again by itself", function()
    open(RENAME, { 1, 0 })
    server.respond = function(params)
      return nil, { edits = { item(bufnr, params.textDocument.version, 2, 2, 2, 7, "sum") } }
    end
    show()
    h.input("<M-x>", function()
      return #marks() == 0
    end, "<M-x> hides the edit")
    h.eq(false, next_edit.is_visible())
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    local count = #requests(METHOD)
    next_edit.due(bufnr)
    h.eq(count, #requests(METHOD), "not asked again at the dismissed version")
    h.eq(false, require("infill").next_edit_dismiss(), "nothing to dismiss")
    vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { "end -- done" })
    next_edit.due(bufnr)
    h.eq(count + 1, #requests(METHOD), "asked once the text changed")
  end)

  it("a request in flight is cancelled when a newer one goes out", function()
    open(RENAME, { 1, 0 })
    h.ok(next_edit.suggest())
    local first = requests(METHOD)[1].id
    h.ok(next_edit.suggest())
    local cancels = notifications("$/cancelRequest")
    h.eq(1, #cancels)
    h.eq(first, cancels[1].params.id)
    h.eq(2, #requests(METHOD))
    h.ok(next_edit.state.inflight ~= nil, "the newer one is in flight")
  end)

  it("asks once typing pauses, not per keystroke, and not again for the same place", function()
    open(RENAME, { 5, 3 })
    server.respond = function()
      return nil, { edits = {} }
    end
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    vim.api.nvim_input(" -- done")
    h.wait_for(function()
      return #requests(METHOD) == 1 and next_edit.state.inflight == nil
    end, 5000, "one request answered")
    h.eq("end -- done", lines()[5])
    h.eq(false, next_edit.state.timer:is_active(), "nothing more due")
    local due, dues = next_edit.due, 0
    next_edit.due = function(...)
      due(...)
      dues = dues + 1
    end
    h.escape()
    h.wait_for(function()
      return dues > 0 and not next_edit.state.timer:is_active()
    end, 5000, "the debounce after leaving insert mode")
    next_edit.due = due
    -- <Esc> moved the cursor back one column, on the same row and version: nothing new to ask.
    h.eq(1, #requests(METHOD))
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    h.wait_for(function()
      return #requests(METHOD) == 2
    end, 5000, "asked on a cursor move in normal mode")
  end)

  it(
    "no request while ghost text shows; ghost text hides a next edit; the manual trigger takes over",
    function()
      vim.o.virtualedit = "onemore" -- the ghost text's cursor at the end of the line in normal mode
      open({ "x = 1", "" }, { 1, 5 })
      server.respond = function(params)
        return nil, { edits = { item(bufnr, params.textDocument.version, 0, 4, 0, 5, "2") } }
      end
      suggestion.state.bufnr = bufnr
      suggestion.state.items =
        { { row = 0, col = 5, prefix = "x = 1", rest = "", text = ";", replace = 0, client_id = 0 } }
      suggestion.state.index = 1
      suggestion.refresh()
      h.ok(suggestion.is_visible())
      next_edit.due(bufnr)
      h.eq({}, requests(METHOD), "nothing asked while ghost text shows")
      h.ok(next_edit.suggest(), "the manual trigger asks")
      h.eq(false, suggestion.is_visible(), "and the ghost text gives way")
      h.wait_for(next_edit.is_visible, 5000, "the next edit shown")
      suggestion.refresh() -- nothing to show: nothing changes
      h.ok(next_edit.is_visible())
      suggestion.state.items =
        { { row = 0, col = 5, prefix = "x = 1", rest = "", text = ";", replace = 0, client_id = 0 } }
      suggestion.refresh()
      h.eq(false, next_edit.is_visible(), "ghost text at the cursor took its place")
      h.eq({}, marks())
      vim.o.virtualedit = ""
    end
  )

  it("in insert mode, the jump to the edit asks for no ghost text there; typing does", function()
    open(RENAME, { 1, 15 })
    suggestion.attach(bufnr)
    server.respond = function(params)
      return nil, { edits = { item(bufnr, params.textDocument.version, 2, 2, 2, 7, "sum") } }
    end
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.wait_for(function()
      return not suggestion.busy()
    end, 5000, "the ghost text's request on InsertEnter answered")
    show()
    h.input("<M-n>", function()
      return vim.api.nvim_win_get_cursor(0)[1] == 3
    end, "the jump in insert mode")
    h.eq(false, suggestion.busy(), "no ghost-text request at the edit")
    h.ok(next_edit.is_visible(), "the next edit still shown")
    h.type("x")
    h.eq(true, suggestion.busy(), "typing asks for ghost text")
    h.eq(false, next_edit.is_visible(), "and the next edit is gone")
    suggestion.detach(bufnr)
  end)

  it("InsertEnter clears it", function()
    open(RENAME, { 1, 0 })
    server.respond = function(params)
      return nil, { edits = { item(bufnr, params.textDocument.version, 2, 2, 2, 7, "sum") } }
    end
    show()
    h.input("i", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.eq({}, marks())
    h.eq(false, next_edit.is_visible())
  end)

  it(
    "an edit off-screen: a hint at the window's last line says where, and the sign marks its line",
    function()
      config.setup({ settings = { nextEdit = { enabled = true } }, next_edit = { sign = ">" } })
      local long = {}
      for i = 1, 300 do
        long[i] = "line " .. i
      end
      open(long, { 1, 0 })
      server.respond = function(params)
        return nil, { edits = { item(bufnr, params.textDocument.version, 249, 0, 249, 4, "LINE") } }
      end
      show()
      local bottom = vim.fn.line("w$") - 1
      local hint = marks(next_edit.hint_ns)
      h.eq(1, #hint)
      h.eq(bottom, hint[1][2])
      h.eq("↓ next edit at line 250: <M-n>", hint[1][4].virt_text[1][1])
      h.eq(">", vim.trim(hint[1][4].sign_text))
      local signs = vim.tbl_filter(function(m)
        return m[4].sign_text ~= nil
      end, marks())
      h.eq(249, signs[1] and signs[1][2])
      h.input("<M-n>", function()
        return vim.api.nvim_win_get_cursor(0)[1] == 250
      end, "the jump")
      vim.cmd("redraw")
      h.wait_for(function()
        return #marks(next_edit.hint_ns) == 0
      end, 5000, "the hint gone once the window shows the edit")
    end
  )

  it("nothing is asked, and no next-edit key is set, while next edits are off", function()
    config.setup({})
    keymaps.set(config.options.keymaps, config.next_edits_enabled())
    open(RENAME, { 1, 0 })
    h.eq(false, next_edit.suggest())
    h.eq({}, requests(METHOD))
    h.eq("", vim.fn.maparg("<M-n>", "n"))
    h.eq("", vim.fn.maparg("<M-n>", "i"))
    h.eq("infill: accept suggestion", vim.fn.maparg("<M-l>", "i", false, true).desc)
    h.ok(vim.fn.maparg("<Plug>(infill-next-edit)", "n") ~= "", "the <Plug> mappings are there")
  end)

  it("keys in normal and insert mode while next edits are on; the <Plug> mappings act too", function()
    for _, mode in ipairs({ "n", "i" }) do
      h.eq("infill: jump to the next edit, then apply it", vim.fn.maparg("<M-n>", mode, false, true).desc)
      h.eq("infill: dismiss the next edit", vim.fn.maparg("<M-x>", mode, false, true).desc)
      h.eq("infill: ask for the next edit now", vim.fn.maparg("<M-N>", mode, false, true).desc)
    end
    open(RENAME, { 1, 0 })
    vim.keymap.set("n", "gn", "<Plug>(infill-next-edit-request)")
    h.input("gn", function()
      return #requests(METHOD) == 1
    end, "asked through <Plug>(infill-next-edit-request)")
    vim.keymap.del("n", "gn")
  end)
end)
