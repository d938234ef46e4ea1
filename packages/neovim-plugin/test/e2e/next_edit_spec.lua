-- End to end: next edits from the built infill-lsp, whose next-edit model is @infill/sim's (DeepSeek's chat
-- dialect at INFILL_BASE_URL), shown and applied by the plugin: a local renamed at its declaration, the next edit
-- shown at its next use, <M-n> <M-n> to jump and apply, the rest of the rename served from the server's memory
-- (test/neovim.test.ts counts the sim's chat requests), each accept counted by the server.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local next_edit = require("infill.next_edit")

local notifications = h.capture_notify()
infill.setup({
  settings = {
    debounceMs = 10,
    context = { enabled = false },
    nextEdit = { enabled = true, debounceMs = 10 },
  },
  next_edit = { debounce = 50 },
})

local AVERAGE = {
  "function average(values) {",
  "  let total = 0;",
  "  for (const v of values) {",
  "    total += v;",
  "  }",
  "  return total / values.length;",
  "}",
}

local RENAMED = {
  "function average(values) {",
  "  let sum = 0;",
  "  for (const v of values) {",
  "    sum += v;",
  "  }",
  "  return sum / values.length;",
  "}",
}

local function lines()
  return vim.api.nvim_buf_get_lines(0, 0, -1, false)
end

--- Wait for a next edit shown on (0-based) `row`.
local function wait_edit_at(row)
  return h.wait_for(
    function()
      local edit = next_edit.current()
      return edit and edit.span.start_row == row and edit
    end,
    10000,
    function()
      local edit = next_edit.current()
      return ("a next edit on line %d (shown: %s)"):format(row + 1, vim.inspect(edit and edit.span))
    end
  )
end

--- Press <M-n> and wait for `done()`.
local function press(done, what)
  h.input("<M-n>", done, what)
end

describe("next edits", function()
  it("a rename at its declaration: the next uses shown, jumped to and applied one by one", function()
    h.edit(h.project("next-edit") .. "/average.js", AVERAGE, { 2, 6 })
    h.wait_for(function()
      local client = require("infill.lsp").get_client(0)
      return client and client.initialized
    end, 10000, "the infill client to attach and initialize")

    h.input("ciwsum<Esc>", function()
      return vim.api.nvim_get_mode().mode == "n" and lines()[2] == "  let sum = 0;"
    end, "the declaration renamed")

    local edit = wait_edit_at(3)
    eq("sum", edit.text)
    local shown = vim.api.nvim_buf_get_extmarks(0, next_edit.ns, 0, -1, { details = true })
    local deleted, written
    for _, mark in ipairs(shown) do
      if mark[4].hl_group == "InfillNextEditDelete" then
        deleted = vim.api.nvim_buf_get_text(0, mark[2], mark[3], mark[4].end_row, mark[4].end_col, {})[1]
      elseif mark[4].virt_text then
        written = mark[4].virt_text[1][1]
      end
    end
    eq({ "total", "sum" }, { deleted, written }, "the old name highlighted, the new one beside it")
    eq(AVERAGE[4], lines()[4], "nothing applied before the key")

    press(function()
      return vim.api.nvim_win_get_cursor(0)[1] == 4
    end, "the jump to line 4")
    press(function()
      return lines()[4] == "    sum += v;"
    end, "the edit on line 4 applied")

    wait_edit_at(5)
    press(function()
      return vim.api.nvim_win_get_cursor(0)[1] == 6
    end, "the jump to line 6")
    press(function()
      return lines()[6] == "  return sum / values.length;"
    end, "the edit on line 6 applied")

    eq(RENAMED, lines(), "the finished rename")
    h.wait_for(function()
      return next_edit.state.inflight == nil
    end, 10000, "the request after the last accept answered")
    eq(false, infill.has_next_edit(), "nothing left to suggest")
    -- The server counted both edits shown (textDocument/didShowInlineEdit) and accepted (their command).
    local status = ok(require("infill.usage").fetch(require("infill.lsp").get_client(0)), "infill.status")
    local figures = ok(status.nextEdits, "next-edit figures in infill.status")
    eq({ 2, 2 }, { figures.shown, figures.accepted }, "shown, accepted")
    vim.cmd("silent! undo")
    eq(AVERAGE[6], lines()[6], "each applied edit is one undo step")
    eq(RENAMED[4], lines()[4])
    eq({}, notifications, "no notifications along the way")
  end)

  it(":checkhealth infill says next edits are on", function()
    h.contains(h.checkhealth(), "next edits: on (settings.nextEdit.enabled)")
    ok(not next(next_edit.state.unsupported), "the server answers textDocument/copilotInlineEdit")
  end)
end)
