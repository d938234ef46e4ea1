-- The preview of a next edit as extmarks, from the edit alone (a table per kind of edit).
local h = require("helpers")
local layout = require("infill.next_edit_layout")

local DEL, ADD = layout.hl.delete, layout.hl.add

---@param start_row integer
---@param start_col integer
---@param end_row integer
---@param end_col integer
---@param text string
local function span(start_row, start_col, end_row, end_col, text)
  return { start_row = start_row, start_col = start_col, end_row = end_row, end_col = end_col, text = text }
end

---@param lines string[]
local function vl(lines)
  return vim.tbl_map(function(line)
    return { { line, ADD } }
  end, lines)
end

describe("next edit layout", function()
  -- name, buffer, edit, tabstop (default 8), the extmarks
  local cases = {
    {
      "an insertion within a line: the new text inline",
      { "abcdef" },
      span(0, 4, 0, 4, "xyz"),
      nil,
      { { row = 0, col = 4, opts = { virt_text = { { "xyz", ADD } }, virt_text_pos = "inline" } } },
    },
    {
      "a deletion within a line: the text highlighted",
      { "abcdef" },
      span(0, 1, 0, 3, ""),
      nil,
      { { row = 0, col = 1, opts = { end_row = 0, end_col = 3, hl_group = DEL } } },
    },
    {
      "a replacement (a rename): the old name highlighted, the new one inline after it",
      { "local total = 0" },
      span(0, 6, 0, 11, "sum"),
      nil,
      {
        { row = 0, col = 6, opts = { end_row = 0, end_col = 11, hl_group = DEL } },
        { row = 0, col = 11, opts = { virt_text = { { "sum", ADD } }, virt_text_pos = "inline" } },
      },
    },
    {
      "whole lines deleted: highlighted to the window's edge",
      { "a", "b", "c" },
      span(1, 0, 2, 0, ""),
      nil,
      { { row = 1, col = 0, opts = { end_row = 2, end_col = 0, hl_group = DEL, hl_eol = true } } },
    },
    {
      "the last line deleted: the range ends at its end",
      { "a", "b", "c" },
      span(2, 0, 3, 0, ""),
      nil,
      { { row = 2, col = 0, opts = { end_row = 2, end_col = 1, hl_group = DEL, hl_eol = true } } },
    },
    {
      "lines inserted before a line: virtual lines above it",
      { "a", "b", "c" },
      span(1, 0, 1, 0, "x\ny\n"),
      nil,
      { { row = 1, col = 0, opts = { virt_lines = vl({ "x", "y" }), virt_lines_above = true } } },
    },
    {
      "lines appended after the last line: virtual lines below it",
      { "a", "b", "c" },
      span(3, 0, 3, 0, "z\n"),
      nil,
      { { row = 2, col = 0, opts = { virt_lines = vl({ "z" }) } } },
    },
    {
      "lines after a line's end: virtual lines below it",
      { "f() {", "}" },
      span(0, 5, 0, 5, "\n  return 1;"),
      nil,
      { { row = 0, col = 5, opts = { virt_lines = vl({ "  return 1;" }) } } },
    },
    {
      "whole lines replaced: the old ones highlighted, the new ones below them",
      { "a", "b", "c" },
      span(1, 0, 2, 0, "B\nBB\n"),
      nil,
      {
        { row = 1, col = 0, opts = { end_row = 2, end_col = 0, hl_group = DEL, hl_eol = true } },
        { row = 1, col = 0, opts = { virt_lines = vl({ "B", "BB" }) } },
      },
    },
    {
      "a line broken in two places: the line highlighted, the lines it becomes below it",
      { "foo(a, b)", "x" },
      span(0, 4, 0, 8, "\n  a,\n  b\n"),
      nil,
      {
        { row = 0, col = 0, opts = { end_row = 1, end_col = 0, hl_group = DEL, hl_eol = true } },
        { row = 0, col = 0, opts = { virt_lines = vl({ "foo(", "  a,", "  b", ")" }) } },
      },
    },
    {
      "a multi-line change on the last line: the highlight ends at the buffer's end",
      { "x", "call(a)" },
      span(1, 5, 1, 6, "\n  a\n"),
      nil,
      {
        { row = 1, col = 0, opts = { end_row = 1, end_col = 7, hl_group = DEL, hl_eol = true } },
        { row = 1, col = 0, opts = { virt_lines = vl({ "call(", "  a", ")" }) } },
      },
    },
    {
      "two lines joined: the line break highlighted, the new text inline where the kept text starts",
      { "a +", "  b" },
      span(0, 3, 1, 2, " "),
      nil,
      {
        { row = 0, col = 3, opts = { end_row = 1, end_col = 2, hl_group = DEL } },
        { row = 1, col = 2, opts = { virt_text = { { " ", ADD } }, virt_text_pos = "inline" } },
      },
    },
    {
      "tabs inline reach the tab stop they would in the buffer",
      { "a" },
      span(0, 1, 0, 1, "\tx"),
      4,
      { { row = 0, col = 1, opts = { virt_text = { { "   x", ADD } }, virt_text_pos = "inline" } } },
    },
    {
      "tabs in virtual lines too",
      { "if x {", "}" },
      span(1, 0, 1, 0, "\treturn\n"),
      4,
      { { row = 1, col = 0, opts = { virt_lines = vl({ "    return" }), virt_lines_above = true } } },
    },
    { "an edit that changes nothing: nothing", { "abc" }, span(0, 1, 0, 1, ""), nil, {} },
  }
  for _, case in ipairs(cases) do
    local name, buffer, edit, tabstop, expected = case[1], case[2], case[3], case[4], case[5]
    it(name, function()
      local lines = vim.list_slice(buffer, edit.start_row + 1, math.min(edit.end_row + 1, #buffer))
      h.eq(expected, layout.preview(edit, lines, #buffer, tabstop or 8))
    end)
  end

  it("the rows an edit is seen on leave out a line it only reaches the start of", function()
    h.eq({ 3, 3 }, { layout.rows(span(3, 2, 3, 5, "x")) })
    h.eq({ 3, 4 }, { layout.rows(span(3, 0, 5, 0, "")) })
    h.eq({ 3, 5 }, { layout.rows(span(3, 1, 5, 2, "")) })
    h.eq({ 3, 3 }, { layout.rows(span(3, 0, 3, 0, "x\n")) })
  end)

  it("says where an edit off-screen is, at the window's first or last line", function()
    h.eq(nil, layout.offscreen_hint(10, 0, 20, "<M-n>"))
    h.eq(nil, layout.offscreen_hint(0, 0, 20))
    h.eq(nil, layout.offscreen_hint(20, 0, 20))
    h.eq({ row = 20, text = "↓ next edit at line 42: <M-n>" }, layout.offscreen_hint(41, 0, 20, "<M-n>"))
    h.eq({ row = 30, text = "↑ next edit at line 3" }, layout.offscreen_hint(2, 30, 50))
  end)
end)
