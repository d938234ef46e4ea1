-- End to end, streaming: the built infill-lsp against an @infill/sim that takes 20 ms a token (INFILL_BASE_URL
-- comes from the test's environment), so a block arrives line by line and the ghost text grows with it.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local lsp = require("infill.lsp")
local suggestion = require("infill.suggestion")

-- `add`'s body, which the sim copies into `sub` after its opening brace: eight lines, `return`, the closer.
local BODY = {}
for i = 1, 8 do
  BODY[i] = ("  const s%d = %s;"):format(i, i == 1 and "a + b" or ("s%d * %d"):format(i - 1, i))
end
local HEADER = "function sub(a, b) {"
local FILE =
  vim.list_extend(vim.list_extend({ "function add(a, b) {" }, BODY), { "  return s8;", "}", "", HEADER })
local BLOCK = "\n" .. table.concat(BODY, "\n") .. "\n  return s8;\n}"

h.capture_notify()
-- Without repository context: the other files of the project (the same text) would change what the sim copies.
infill.setup({ settings = { debounceMs = 10, logLevel = "debug", context = { enabled = false } } })

local project = h.project("stream")
local n = 0

--- Edit a new file of the project holding FILE, and start typing at the end of its last line (after `{`).
local function start_typing()
  n = n + 1
  h.edit_and_append(("%s/file%d.js"):format(project, n), FILE, { #FILE, 0 })
end

--- Is `partial` (lines) the start of `text` (lines)?
local function starts_with_lines(text, partial)
  local want = vim.split(partial, "\n", { plain = true })
  local have = vim.split(text, "\n", { plain = true })
  return vim.deep_equal(want, vim.list_slice(have, 1, #want))
end

--- Wait for ghost text with at least `count` lines that have something on them, while the block still streams.
local function wait_partial(count)
  return h.wait_for(
    function()
      local text = h.ghost_text()
      local lines = text
          and #vim.tbl_filter(function(line)
            return line:find("%S") ~= nil
          end, vim.split(text, "\n", { plain = true }))
        or 0
      return lines >= count and suggestion.busy() and text
    end,
    10000,
    function()
      return ("ghost text of %d lines while streaming (shown: %s)"):format(count, vim.inspect(h.ghost_text()))
    end
  )
end

--- Wait for the server to say it aborted an upstream request (its debug log, relayed to `:Infill log`).
local function wait_aborted(since)
  h.wait_for(function()
    for i = since + 1, #lsp.state.log do
      if lsp.state.log[i]:find("upstream request aborted", 1, true) then
        return true
      end
    end
  end, nil, "the server to abort the upstream request")
end

describe("streaming ghost text", function()
  after_each(function()
    if vim.api.nvim_get_mode().mode ~= "n" then
      h.escape()
    end
    infill.dismiss()
  end)

  it(
    "grows line by line while the block streams, never taking a line back, and ends as the answer",
    function()
      start_typing()
      local seen = {}
      h.wait_for(
        function()
          local text = h.ghost_text()
          if text and text ~= seen[#seen] then
            table.insert(seen, text)
          end
          return text == BLOCK and not suggestion.busy()
        end,
        15000,
        function()
          return "the whole block: " .. vim.inspect(seen)
        end
      )
      ok(#seen >= 5, "the ghost text grew in steps: " .. vim.inspect(seen))
      eq("\n" .. BODY[1], seen[1], "the first line, on its own")
      for i = 2, #seen do
        ok(
          starts_with_lines(seen[i], seen[i - 1]),
          ("step %d extends step %d: %s"):format(i, i - 1, vim.inspect(seen))
        )
      end
      eq(HEADER, vim.api.nvim_get_current_line(), "nothing inserted")
    end
  )

  it("accept_line on a partial inserts that line, and the rest keeps coming", function()
    start_typing()
    wait_partial(1)
    ok(infill.accept_line(), "accept_line() while streaming")
    eq({ HEADER, BODY[1] }, vim.api.nvim_buf_get_lines(0, #FILE - 1, -1, false), "the first line inserted")
    eq({ #FILE + 1, #BODY[1] }, vim.api.nvim_win_get_cursor(0), "the cursor after it")
    local rest = BLOCK:sub(#BODY[1] + 2)
    h.wait_for(
      function()
        return h.ghost_text() == rest and not suggestion.busy()
      end,
      15000,
      function()
        return ("the rest of the block %s (shown: %s)"):format(vim.inspect(rest), vim.inspect(h.ghost_text()))
      end
    )
    ok(infill.accept(), "accept() the rest")
    eq(vim.split(HEADER .. BLOCK, "\n"), vim.api.nvim_buf_get_lines(0, #FILE - 1, -1, false))
  end)

  it("typing a character that contradicts it removes it, and the upstream request is aborted", function()
    start_typing()
    local since = #lsp.state.log
    wait_partial(1)
    h.type("x", function()
      eq(nil, h.ghost_text(), "no ghost text right after the contradicting character")
    end)
    wait_aborted(since)
    -- Whatever streamed meanwhile never shows again.
    h.wait_for(function()
      return not suggestion.busy()
    end, nil, "requests to settle")
    local shown = h.ghost_text()
    ok(shown == nil or not shown:find("const s2", 1, true), "the old block is gone: " .. vim.inspect(shown))
  end)

  it("dismissing it while it streams stops it, and the upstream request is aborted", function()
    start_typing()
    local since = #lsp.state.log
    wait_partial(2)
    h.input("<C-]>", function()
      return h.ghost_text() == nil
    end, "no ghost text after <C-]>")
    eq(false, suggestion.busy(), "no request in flight")
    wait_aborted(since)
    eq(nil, h.ghost_text(), "no line drawn after dismissing")
    eq(HEADER, vim.api.nvim_get_current_line())
  end)
end)
