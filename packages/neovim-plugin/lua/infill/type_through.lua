---@brief Type-through: what is left of a suggestion after the user typed into it.
---
--- The same rules as the server's (packages/lsp-server/src/type-through.ts), on bytes instead of UTF-16 units, so
--- the ghost text follows each keystroke at once and the server's answer from memory matches what is shown.

local M = {}

---@class infill.Anchored
---@field row integer Anchor row (0-based): where the suggestion is inserted.
---@field col integer Anchor byte column (0-based).
---@field prefix string Text of the anchor row before the anchor, when the suggestion arrived.
---@field rest string Text of the anchor row after the anchor, when the suggestion arrived.
---@field text string Text to insert at the anchor (lines joined with "\n").
---@field replace integer Bytes of `rest` that the suggestion replaces (an auto-paired closer, say).

---@class infill.Now
---@field row integer Cursor row (0-based).
---@field col integer Cursor byte column (0-based).
---@field typed string Buffer text between the anchor and the cursor ("" at the anchor).
---@field prefix string Current text of the anchor row before the anchor column.
---@field rest string Current text of the cursor row after the cursor.

---@class infill.Remainder
---@field text string What is still to insert at the cursor.
---@field replace integer Bytes after the cursor that inserting it replaces.

---@param s string
---@param from integer 1-based
---@return integer first index past the spaces and tabs
local function skip_indent(s, from)
  local i = from
  while i <= #s do
    local c = s:sub(i, i)
    if c ~= " " and c ~= "\t" then
      break
    end
    i = i + 1
  end
  return i
end

--- Match `typed` against the start of `text`; nil when they diverge, else the rest of `text`. Indentation after a
--- typed line break is lenient because editors auto-indent.
---@param text string
---@param typed string
---@return string?
local function match_typed(text, typed)
  local i, j = 1, 1
  while j <= #typed do
    if i > #text then
      return nil
    end
    local t = typed:sub(j, j)
    if t ~= text:sub(i, i) then
      return nil
    end
    i, j = i + 1, j + 1
    if t == "\n" then
      local typed_end = skip_indent(typed, j)
      local text_end = skip_indent(text, i)
      local typed_indent = typed:sub(j, typed_end - 1)
      if typed_end > #typed and text:sub(i, i + #typed_indent - 1) == typed_indent then
        -- Only indentation typed so far, and it agrees: the rest of the suggestion's indentation is to come.
        i = i + #typed_indent
      else
        i = text_end
      end
      j = typed_end
    end
  end
  return text:sub(i)
end

---@param needle string
---@param haystack string
---@return boolean
local function is_subsequence(needle, haystack)
  local j = 1
  for i = 1, #haystack do
    if j > #needle then
      break
    end
    if haystack:sub(i, i) == needle:sub(j, j) then
      j = j + 1
    end
  end
  return j > #needle
end

--- Does the cursor sit exactly where the anchor plus `typed` puts it?
---@param s infill.Anchored
---@param now infill.Now
---@return boolean
local function cursor_agrees(s, now)
  local breaks, last_line_start = 0, nil
  for pos in now.typed:gmatch("()\n") do
    breaks = breaks + 1
    last_line_start = pos + 1
  end
  if breaks == 0 then
    return now.row == s.row and now.col == s.col + #now.typed
  end
  return now.row == s.row + breaks and now.col == #now.typed - last_line_start + 1
end

--- What remains of suggestion `s` in the buffer as it is `now`, or nil when it no longer applies: the anchor row's
--- prefix changed, the cursor is not where `typed` says, the rest of the line changed beyond what typing over the
--- replaced characters explains, `typed` is not a prefix of the suggestion, or only whitespace would remain.
---@param s infill.Anchored
---@param now infill.Now
---@return infill.Remainder?
function M.remainder(s, now)
  if now.prefix ~= s.prefix or not cursor_agrees(s, now) then
    return nil
  end
  local consumed = #s.rest - #now.rest
  if consumed < 0 or consumed > s.replace then
    return nil
  end
  if s.rest:sub(consumed + 1) ~= now.rest then
    return nil
  end
  local typed = now.typed:gsub("\r\n?", "\n")
  if consumed > 0 and not is_subsequence(s.rest:sub(1, consumed), typed) then
    return nil
  end
  local rest = match_typed(s.text, typed)
  if rest == nil or not rest:find("%S") then
    return nil
  end
  return { text = rest, replace = s.replace - consumed }
end

--- Longest lines typed into a suggestion that are still followed; past this the suggestion is dropped.
M.max_lines = 16

--- Read `now` for `s` from buffer `bufnr` with the cursor at (`row`, `col`), 0-based; nil when the cursor is
--- before the anchor or too far past it. This reads the anchor's row and column as they were: the caller must
--- drop `s` when the buffer changes before the anchor (lines added or removed above move other text there), as
--- `infill.suggestion` does from `nvim_buf_attach`'s `on_bytes`.
---@param bufnr integer
---@param s infill.Anchored
---@param row integer
---@param col integer
---@return infill.Now?
function M.read(bufnr, s, row, col)
  if row < s.row or row - s.row > M.max_lines or (row == s.row and col < s.col) then
    return nil
  end
  local anchor_line = vim.api.nvim_buf_get_lines(bufnr, s.row, s.row + 1, false)[1]
  local cursor_line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
  if anchor_line == nil or cursor_line == nil or #anchor_line < s.col or #cursor_line < col then
    return nil
  end
  local typed = table.concat(vim.api.nvim_buf_get_text(bufnr, s.row, s.col, row, col, {}), "\n")
  return {
    row = row,
    col = col,
    typed = typed,
    prefix = anchor_line:sub(1, s.col),
    rest = cursor_line:sub(col + 1),
  }
end

return M
