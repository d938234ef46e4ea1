---@brief The preview of a next edit as extmarks, from the edit alone: what it deletes highlighted where it is, what
--- it writes as virtual text (inline within a line, virtual lines for lines), and where the edit is when the window
--- does not show it. Pure: no buffer, window or state is read.

local tabs = require("infill.tabs")

local M = {}

--- Highlight groups of the preview.
M.hl = {
  delete = "InfillNextEditDelete",
  add = "InfillNextEditAdd",
  sign = "InfillNextEditSign",
  hint = "InfillNextEditHint",
}

--- An edit in buffer coordinates: 0-based rows, byte columns; the end is exclusive.
---@class infill.EditSpan
---@field start_row integer
---@field start_col integer
---@field end_row integer
---@field end_col integer
---@field text string What replaces the range ("" deletes it).

--- One extmark: where, and its `nvim_buf_set_extmark` options.
---@class infill.PreviewMark
---@field row integer
---@field col integer
---@field opts vim.api.keyset.set_extmark

---@param lines string[]
---@param tabstop integer
---@return table[] virt_lines
local function virt_lines(lines, tabstop)
  local out = {}
  for _, line in ipairs(lines) do
    table.insert(out, { { tabs.expand(line, 0, tabstop), M.hl.add } })
  end
  return out
end

--- A highlight of the deleted text from (row, col) to (end_row, end_col); an end at a line's start past the buffer's
--- last line is the end of that last line.
---@param row integer
---@param col integer
---@param end_row integer
---@param end_col integer
---@param line_at fun(row: integer): string
---@param line_count integer
---@param whole_lines boolean The range is whole lines: the highlight reaches the window's edge.
---@return infill.PreviewMark
local function deletion(row, col, end_row, end_col, line_at, line_count, whole_lines)
  if end_row >= line_count then
    end_row, end_col = line_count - 1, #line_at(line_count - 1)
  end
  return {
    row = row,
    col = col,
    opts = { end_row = end_row, end_col = end_col, hl_group = M.hl.delete, hl_eol = whole_lines or nil },
  }
end

--- The extmarks that preview `span`.
---
--- - Whole lines (from a line's start to a line's start, the new text whole lines): the deleted lines highlighted
---   to the window's edge, the new ones as virtual lines below them (above the next line for a pure insertion).
--- - Lines after a line's end (an insertion at the end of a line that starts with a line break): virtual lines below.
--- - New text without a line break: the deleted text highlighted, the new text inline after it.
--- - Anything else (a line break inside a line): the touched lines highlighted as deleted and the lines they become
---   as virtual lines below them.
---@param span infill.EditSpan
---@param lines string[] The buffer's lines from `span.start_row` to `span.end_row` (those that exist).
---@param line_count integer Lines in the buffer.
---@param tabstop integer
---@return infill.PreviewMark[]
function M.preview(span, lines, line_count, tabstop)
  local row, col, end_row, end_col, text =
    span.start_row, span.start_col, span.end_row, span.end_col, span.text
  ---@param r integer
  ---@return string
  local function line_at(r)
    return lines[r - row + 1] or ""
  end
  local deletes = end_row > row or end_col > col
  if not deletes and text == "" then
    return {}
  end
  local new = vim.split(text, "\n", { plain = true })
  local marks = {}

  if col == 0 and end_col == 0 and (text == "" or text:sub(-1) == "\n") then
    if deletes then
      table.insert(marks, deletion(row, 0, end_row, 0, line_at, line_count, true))
    end
    local added = vim.list_slice(new, 1, #new - 1)
    if #added > 0 then
      if deletes then
        local below = math.min(end_row, line_count) - 1
        table.insert(marks, { row = below, col = 0, opts = { virt_lines = virt_lines(added, tabstop) } })
      elseif row < line_count then
        table.insert(marks, {
          row = row,
          col = 0,
          opts = { virt_lines = virt_lines(added, tabstop), virt_lines_above = true },
        })
      else
        table.insert(
          marks,
          { row = line_count - 1, col = 0, opts = { virt_lines = virt_lines(added, tabstop) } }
        )
      end
    end
    return marks
  end

  if not deletes and #new > 1 and new[1] == "" and col >= #line_at(row) then
    local added = vim.list_slice(new, 2)
    return { { row = row, col = col, opts = { virt_lines = virt_lines(added, tabstop) } } }
  end

  if #new == 1 then
    if deletes then
      table.insert(marks, deletion(row, col, end_row, end_col, line_at, line_count, false))
    end
    if text ~= "" then
      local before = line_at(end_row):sub(1, end_col)
      local shown = tabs.expand(text, vim.fn.strdisplaywidth(before), tabstop)
      table.insert(marks, {
        row = math.min(end_row, line_count - 1),
        col = end_col,
        opts = { virt_text = { { shown, M.hl.add } }, virt_text_pos = "inline" },
      })
    end
    return marks
  end

  local last = math.min(end_row, line_count - 1)
  table.insert(marks, deletion(row, 0, last + 1, 0, line_at, line_count, true))
  local result = vim.deepcopy(new)
  result[1] = line_at(row):sub(1, col) .. result[1]
  result[#result] = result[#result] .. line_at(end_row):sub(end_col + 1)
  table.insert(marks, { row = last, col = 0, opts = { virt_lines = virt_lines(result, tabstop) } })
  return marks
end

--- The rows the edit is seen on: from its first row to its last, where an end at a line's start leaves that line
--- out (it is not touched).
---@param span infill.EditSpan
---@return integer first, integer last
function M.rows(span)
  local last = span.end_row
  if span.end_col == 0 and last > span.start_row then
    last = last - 1
  end
  return span.start_row, last
end

--- Where to say that the edit is off-screen, and what: at the end of the window's first line when the edit is above
--- it, of its last line when it is below; nil when the window shows the edit's first row.
---@param edit_row integer 0-based row of the edit's start.
---@param top integer 0-based first row the window shows.
---@param bottom integer 0-based last row the window shows.
---@param key? string The key that jumps there, named in the hint.
---@return { row: integer, text: string }?
function M.offscreen_hint(edit_row, top, bottom, key)
  if edit_row >= top and edit_row <= bottom then
    return nil
  end
  local above = edit_row < top
  local text = ("%s next edit at line %d"):format(above and "↑" or "↓", edit_row + 1)
  if key then
    text = text .. (": %s"):format(key)
  end
  return { row = above and top or bottom, text = text }
end

return M
