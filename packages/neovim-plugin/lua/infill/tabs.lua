---@brief Tabs in virtual text: a tab in an extmark's text does not reach the buffer's tab stops, so text that will
--- stand in the buffer is drawn with its tabs expanded to the columns they would reach there.

local M = {}

--- `s` with each tab replaced by the spaces up to the next tab stop, counting from display column `start_col`.
---@param s string
---@param start_col integer display column where `s` starts
---@param tabstop integer
---@return string
function M.expand(s, start_col, tabstop)
  if not s:find("\t", 1, true) then
    return s
  end
  local out, col = {}, start_col
  for ch in s:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
    if ch == "\t" then
      local n = tabstop - (col % tabstop)
      table.insert(out, (" "):rep(n))
      col = col + n
    else
      table.insert(out, ch)
      col = col + vim.fn.strdisplaywidth(ch)
    end
  end
  return table.concat(out)
end

return M
