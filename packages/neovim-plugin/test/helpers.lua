-- Assertions and editor helpers for the specs.
local runner = require("runner")

local M = {}

M.wait_for = runner.wait_for
M.skip = runner.skip

---@param expected any
---@param actual any
---@param msg? string
function M.eq(expected, actual, msg)
  if not vim.deep_equal(expected, actual) then
    error(
      ("%sexpected %s, got %s"):format(
        msg and (msg .. ": ") or "",
        vim.inspect(expected),
        vim.inspect(actual)
      ),
      2
    )
  end
end

---@param value any
---@param msg? string
function M.ok(value, msg)
  if not value then
    error(("%sexpected a truthy value, got %s"):format(msg and (msg .. ": ") or "", vim.inspect(value)), 2)
  end
  return value
end

---@param haystack string
---@param needle string
---@param msg? string
function M.contains(haystack, needle, msg)
  if type(haystack) ~= "string" or not haystack:find(needle, 1, true) then
    error(
      ("%sexpected %s to contain %s"):format(
        msg and (msg .. ": ") or "",
        vim.inspect(haystack),
        vim.inspect(needle)
      ),
      2
    )
  end
end

--- The ghost text on screen in `bufnr`, read back from the extmarks of namespace `ns_name`: the inline pieces
--- joined (in column order) and the virtual lines, joined with "\n"; nil when there is none.
---@param bufnr? integer
---@param ns_name? string
---@return { text: string, row: integer, col: integer, pos: string, marks: integer }?
function M.ghost(bufnr, ns_name)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local ns = vim.api.nvim_get_namespaces()[ns_name or "infill.suggestion"]
  if not ns then
    return nil
  end
  local marks = vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })
  if #marks == 0 then
    return nil
  end
  table.sort(marks, function(a, b)
    return a[2] < b[2] or (a[2] == b[2] and a[3] < b[3])
  end)
  -- Overlays blank out replaced characters; they are not part of the suggestion's text.
  marks = vim.tbl_filter(function(mark)
    return mark[4].virt_text_pos ~= "overlay"
  end, marks)
  if #marks == 0 then
    return nil
  end
  local inline, lines = {}, {}
  for _, mark in ipairs(marks) do
    local details = mark[4]
    for _, chunk in ipairs(details.virt_text or {}) do
      table.insert(inline, chunk[1])
    end
    for _, vline in ipairs(details.virt_lines or {}) do
      local parts = {}
      for _, chunk in ipairs(vline) do
        table.insert(parts, chunk[1])
      end
      table.insert(lines, table.concat(parts))
    end
  end
  local text = table.concat(inline)
  if #lines > 0 then
    text = text .. "\n" .. table.concat(lines, "\n")
  end
  return {
    text = text,
    row = marks[1][2],
    col = marks[1][3],
    pos = marks[1][4].virt_text_pos or "",
    marks = #marks,
  }
end

--- The ghost text's string, or nil.
---@return string?
function M.ghost_text(bufnr, ns_name)
  local g = M.ghost(bufnr, ns_name)
  return g and g.text
end

--- A fresh folder with a `.git` marker, for a project root.
---@param name? string
---@return string
function M.project(name)
  local dir = vim.fn.tempname() .. "-" .. (name or "project")
  vim.fn.mkdir(dir .. "/.git", "p")
  return dir
end

--- Write `lines` to `path`, edit it, and put the cursor at `cursor` ({row 1-based, col 0-based byte}).
---@param path string
---@param lines string[]
---@param cursor? integer[]
---@return integer bufnr
function M.edit(path, lines, cursor)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ":h"), "p")
  vim.fn.writefile(lines, path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  if cursor then
    vim.api.nvim_win_set_cursor(0, cursor)
  end
  return vim.api.nvim_get_current_buf()
end

--- Edit `path` holding `lines` with the cursor at `cursor`, wait for the infill client to attach and initialize,
--- and enter insert mode at the end of the line (`A`).
---@param path string
---@param lines string[]
---@param cursor integer[]
function M.edit_and_append(path, lines, cursor)
  M.edit(path, lines, cursor)
  M.wait_for(function()
    local client = require("infill.lsp").get_client(0)
    return client and client.initialized
  end, 10000, "the infill client to attach and initialize")
  M.input("A", function()
    return vim.api.nvim_get_mode().mode == "i"
  end)
end

--- Type `keys` (as a user would, through Neovim's input queue) and wait until `done()` holds.
---@param keys string
---@param done fun(): any
---@param what? string
function M.input(keys, done, what)
  vim.api.nvim_input(keys)
  return M.wait_for(done, nil, what or ("the effect of typing " .. vim.inspect(keys)))
end

--- Type `text` one character at a time in insert mode, waiting for each to land in the current line; calls
--- `after_each_char(typed_so_far)` after each one, before anything else runs.
---@param text string
---@param after_each_char? fun(typed: string)
function M.type(text, after_each_char)
  local typed = ""
  for ch in text:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
    local before_line = vim.api.nvim_get_current_line()
    local before_col = vim.api.nvim_win_get_cursor(0)[2]
    local expected = before_line:sub(1, before_col) .. ch .. before_line:sub(before_col + 1)
    vim.api.nvim_input(ch == "<" and "<lt>" or ch)
    M.wait_for(function()
      local line = vim.api.nvim_get_current_line()
      return line == expected or (line:sub(1, before_col + #ch) == before_line:sub(1, before_col) .. ch)
    end, nil, "typed " .. vim.inspect(ch) .. " to land")
    typed = typed .. ch
    if after_each_char then
      after_each_char(typed)
    end
  end
end

--- A file with the cursor (`{ 6, 2 }`) on the empty line of `sub`'s body, where @infill/sim suggests
--- `return a + b;` (it copies `add`'s body).
M.ADD_SUB = { "function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {", "  ", "}" }

--- Enter insert mode at the end of the line (`A`), type `typed`, and wait for `expected` as ghost text.
---@param typed string
---@param expected string
---@param timeout? integer ms, default the runner's wait_ms
function M.append_and_wait_ghost(typed, expected, timeout)
  M.input("A", function()
    return vim.api.nvim_get_mode().mode == "i"
  end)
  M.type(typed)
  return M.wait_for(
    function()
      return M.ghost_text() == expected
    end,
    timeout,
    function()
      return ("ghost text %s (shown: %s)"):format(vim.inspect(expected), vim.inspect(M.ghost_text()))
    end
  )
end

--- Leave insert mode and wait for normal mode.
function M.escape()
  vim.api.nvim_input("<Esc>")
  M.wait_for(function()
    return vim.api.nvim_get_mode().mode == "n"
  end, nil, "normal mode")
end

--- Record `vim.notify` calls; returns the list they go to.
---@return { msg: string, level: integer? }[]
function M.capture_notify()
  local calls = {}
  vim.notify = function(msg, level)
    table.insert(calls, { msg = msg, level = level })
  end
  return calls
end

--- Run `:checkhealth infill` and return its report as text (the report's buffer is wiped).
---@return string
function M.checkhealth()
  vim.cmd("checkhealth infill")
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  vim.cmd("bwipeout!")
  return text
end

--- The advice lines of the first `:checkhealth` item whose line contains `needle` (the lines after it, up to the
--- next item or section), joined with "\n"; fails when no item contains it.
---@param text string A `:checkhealth` report.
---@param needle string
---@return string
function M.advice(text, needle)
  local lines = vim.split(text, "\n")
  for i, line in ipairs(lines) do
    if line:find(needle, 1, true) then
      local out = {}
      for j = i + 1, #lines do
        local next_line = lines[j]
        if next_line:find("^%- ") or next_line:find("~%s*$") or next_line:find("^=+$") then
          break
        end
        table.insert(out, next_line)
      end
      return table.concat(out, "\n")
    end
  end
  error(("no :checkhealth item contains %s in:\n%s"):format(vim.inspect(needle), text), 2)
end

--- Stop every LSP client and wait for them to exit.
function M.stop_clients()
  local clients = vim.lsp.get_clients()
  for _, client in ipairs(clients) do
    if vim.fn.has("nvim-0.11") == 1 then
      client:stop(true)
    else
      client.stop(true)
    end
  end
  M.wait_for(function()
    return #vim.lsp.get_clients() == 0
  end, nil, "LSP clients to stop")
end

--- Wipe every buffer but a fresh empty one.
function M.wipe_buffers()
  vim.cmd("silent! %bwipeout!")
end

return M
