-- Type-through: the same table as the server's (packages/lsp-server/test/type-through.test.ts), read from a real
-- buffer.
local h = require("helpers")
local tt = require("infill.type_through")

local MARK = "│"

--- Lines and 0-based cursor of a source with `│` at the cursor.
local function fixture(source)
  local lines = vim.split(source, "\n", { plain = true })
  for row, line in ipairs(lines) do
    local col = line:find(MARK, 1, true)
    if col then
      lines[row] = line:sub(1, col - 1) .. line:sub(col + #MARK)
      return lines, row - 1, col - 1
    end
  end
  error("no cursor marker in " .. source)
end

local function suggestion_at(source, text, replace)
  local lines, row, col = fixture(source)
  return {
    row = row,
    col = col,
    prefix = lines[row + 1]:sub(1, col),
    rest = lines[row + 1]:sub(col + 1),
    text = text,
    replace = replace,
  }
end

local bufnr = vim.api.nvim_create_buf(false, true)

local function remainder_after(s, now)
  local lines, row, col = fixture(now)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  local state = tt.read(bufnr, s, row, col)
  return state and tt.remainder(s, state)
end

local args = suggestion_at("  foo(abc,│)", " b, c", 0)
local body = suggestion_at("function f() {│}", "\n  return 1;\n}", 1)
local covering = suggestion_at("foo(│)", "x);", 1)

local cases = {
  { "cursor still at the anchor", args, "  foo(abc,│)", { text = " b, c", replace = 0 } },
  { "typed a prefix", args, "  foo(abc, b│)", { text = ", c", replace = 0 } },
  { "typed all of it", args, "  foo(abc, b, c│)", nil },
  { "typed beyond it", args, "  foo(abc, b, c, d│)", nil },
  { "typed something else", args, "  foo(abc, x│)", nil },
  { "rest of the line changed", args, "  foo(abc, b│", nil },
  { "anchor line edited before the anchor", args, "  bar(abc, b│)", nil },
  { "cursor before the anchor", args, "  foo(ab│c,)", nil },
  { "cursor on another line", args, "  foo(abc, b)\n│", nil },
  { "auto-indent matches exactly", body, "function f() {\n  │}", { text = "return 1;\n}", replace = 1 } },
  { "auto-indent with a tab", body, "function f() {\n\t│}", { text = "return 1;\n}", replace = 1 } },
  { "no auto-indent", body, "function f() {\n│}", { text = "  return 1;\n}", replace = 1 } },
  { "deeper auto-indent", body, "function f() {\n      │}", { text = "return 1;\n}", replace = 1 } },
  { "typed into the next line", body, "function f() {\n  ret│}", { text = "urn 1;\n}", replace = 1 } },
  { "typed with other indentation", body, "function f() {\n\tret│}", { text = "urn 1;\n}", replace = 1 } },
  { "typed a different line", body, "function f() {\n  log│}", nil },
  { "typed the whole block", body, "function f() {\n  return 1;\n}│}", nil },
  { "typed over an auto-paired closer", covering, "foo(x)│", { text = ";", replace = 0 } },
  { "typed a closer beside the paired one", covering, "foo(x)│)", { text = ";", replace = 1 } },
  { "covered closer deleted, nothing typed", covering, "foo(│", nil },
  {
    "multi-byte text typed through",
    suggestion_at("s = '│'", "é😀 ok", 0),
    "s = 'é😀│'",
    { text = " ok", replace = 0 },
  },
}

describe("type-through", function()
  for _, case in ipairs(cases) do
    it(case[1], function()
      h.eq(case[4], remainder_after(case[2], case[3]))
    end)
  end

  it("rejects more consumed of the line than the suggestion covers", function()
    local s = suggestion_at("foo(│);", "x)", 1)
    h.eq(nil, remainder_after(s, "foo(x);│"))
    h.eq({ text = "x)", replace = 1 }, remainder_after(s, "foo(│);"))
  end)

  it("accepts CRLF line breaks in the typed text", function()
    local now = { row = 1, col = 5, typed = "\r\n  ret", prefix = "function f() {", rest = "}" }
    h.eq({ text = "urn 1;\n}", replace = 1 }, tt.remainder(body, now))
  end)

  it("follows at most max_lines lines", function()
    local s = suggestion_at("│", ("x\n"):rep(30) .. "end", 0)
    local lines = {}
    for i = 1, tt.max_lines + 1 do
      lines[i] = "x"
    end
    h.eq(nil, remainder_after(s, table.concat(lines, "\n") .. "\n│"))
    h.ok(remainder_after(s, "x\nx\n│"))
  end)
end)
