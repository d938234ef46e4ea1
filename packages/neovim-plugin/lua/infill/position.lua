---@brief Columns between Neovim (bytes) and LSP (`utf-8`, `utf-16` or `utf-32` code units, as negotiated).
---
--- Neovim 0.11 changed `vim.str_utfindex`/`vim.str_byteindex` to take the encoding as an argument and to clamp on
--- request; 0.10 takes `use_utf16` and raises on out-of-range indexes. Both are handled here, once.

local M = {}

local new_api = vim.fn.has("nvim-0.11") == 1

---@param n integer
---@param lo integer
---@param hi integer
---@return integer
local function clamp(n, lo, hi)
  return math.max(lo, math.min(n, hi))
end

--- Length of `line` in code units of `encoding`.
---@param line string
---@param encoding string
---@return integer
function M.units(line, encoding)
  if encoding == "utf-8" then
    return #line
  end
  if new_api then
    return vim.str_utfindex(line, encoding --[[@as "utf-16"|"utf-32"]])
  end
  ---@diagnostic disable-next-line: param-type-mismatch, missing-parameter
  local utf32, utf16 = vim.str_utfindex(line)
  return encoding == "utf-16" and utf16 or utf32
end

--- LSP `character` of byte column `col` (0-based) of `line`.
---@param line string
---@param col integer
---@param encoding string "utf-8"|"utf-16"|"utf-32"
---@return integer
function M.to_character(line, col, encoding)
  col = clamp(col, 0, #line)
  if encoding == "utf-8" then
    return col
  end
  if new_api then
    return vim.str_utfindex(line, encoding --[[@as "utf-16"|"utf-32"]], col, false)
  end
  ---@diagnostic disable-next-line: param-type-mismatch
  local utf32, utf16 = vim.str_utfindex(line, col)
  return encoding == "utf-16" and utf16 or utf32
end

--- Byte column (0-based) of LSP `character` on `line`; past the end clamps to the end.
---@param line string
---@param character integer
---@param encoding string "utf-8"|"utf-16"|"utf-32"
---@return integer
function M.to_byte(line, character, encoding)
  if encoding == "utf-8" then
    return clamp(character, 0, #line)
  end
  if new_api then
    return vim.str_byteindex(line, encoding --[[@as "utf-16"|"utf-32"]], math.max(character, 0), false)
  end
  character = clamp(character, 0, M.units(line, encoding))
  ---@diagnostic disable-next-line: param-type-mismatch, redundant-parameter
  return vim.str_byteindex(line, character, encoding == "utf-16")
end

return M
