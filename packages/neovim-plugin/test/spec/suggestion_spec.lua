-- Rendering, accepting and cycling, on suggestions put in memory by hand (no server).
local h = require("helpers")
local config = require("infill.config")
local suggestion = require("infill.suggestion")

vim.o.virtualedit = "onemore" -- so the cursor can sit at the end of a line in normal mode

local bufnr

--- A buffer with `lines`, the cursor at (row 1-based, col), and `items` (text, replace) anchored at the cursor.
local function setup_buffer(lines, cursor, items)
  bufnr = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.api.nvim_win_set_cursor(0, cursor)
  local line = lines[cursor[1]]
  local anchored = {}
  for _, item in ipairs(items) do
    table.insert(anchored, {
      row = cursor[1] - 1,
      col = cursor[2],
      prefix = line:sub(1, cursor[2]),
      rest = line:sub(cursor[2] + 1),
      text = item[1],
      replace = item[2] or 0,
      client_id = 0,
    })
  end
  suggestion.state.bufnr = bufnr
  suggestion.state.items = anchored
  suggestion.state.index = 1
  suggestion.refresh()
end

local function marks()
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, suggestion.ns, 0, -1, { details = true })) do
    table.insert(out, {
      row = m[2],
      col = m[3],
      text = m[4].virt_text and m[4].virt_text[1][1] or nil,
      hl = m[4].virt_text and m[4].virt_text[1][2] or nil,
      pos = m[4].virt_text_pos,
      lines = m[4].virt_lines and vim.tbl_map(function(l)
        return l[1][1]
      end, m[4].virt_lines) or nil,
    })
  end
  table.sort(out, function(a, b)
    return a.col < b.col or (a.col == b.col and (a.pos or "") < (b.pos or ""))
  end)
  return out
end

local function buffer()
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

describe("suggestion", function()
  before_each(function()
    config.setup()
  end)
  after_each(function()
    suggestion.dismiss()
    vim.cmd("silent! bwipeout! " .. bufnr)
  end)

  describe("rendering", function()
    it("draws the first line inline at the cursor at the end of a line", function()
      setup_buffer({ "  re" }, { 1, 4 }, { { "turn a + b;" } })
      h.eq({ { row = 0, col = 4, text = "turn a + b;", hl = "InfillSuggestion", pos = "inline" } }, marks())
      h.eq(true, suggestion.is_visible())
    end)

    it("draws inline mid-line so the text after the cursor shifts right", function()
      setup_buffer({ "foo(, c)" }, { 1, 4 }, { { "a, b" } })
      h.eq({ { row = 0, col = 4, text = "a, b", hl = "InfillSuggestion", pos = "inline" } }, marks())
    end)

    it("draws the other lines as virtual lines", function()
      setup_buffer({ "function f() {", "" }, { 1, 14 }, { { "\n  return 1;\n}" } })
      h.eq({ { row = 0, col = 14, lines = { "  return 1;", "}" } } }, marks())
    end)

    it("shows replaced characters (an auto-paired closer) where the suggestion has them", function()
      setup_buffer({ "foo()" }, { 1, 4 }, { { "x, y);", 1 } })
      h.eq({
        { row = 0, col = 4, text = "x, y", hl = "InfillSuggestion", pos = "inline" },
        { row = 0, col = 5, text = ";", hl = "InfillSuggestion", pos = "inline" },
      }, marks())
    end)

    it("blanks out replaced characters the first line does not show", function()
      setup_buffer({ "function f() {}" }, { 1, 14 }, { { "\n  return 1;\n}", 1 } })
      h.eq({
        { row = 0, col = 14, lines = { "  return 1;", "}" } },
        { row = 0, col = 14, text = " ", hl = "Normal", pos = "overlay" },
      }, marks())
    end)

    it("expands tabs", function()
      vim.o.tabstop = 4
      setup_buffer({ "if x {" }, { 1, 6 }, { { "\n\treturn;\n}" } })
      vim.o.tabstop = 8
      h.eq({ "    return;", "}" }, marks()[1].lines)
      setup_buffer({ "x\t" }, { 1, 2 }, { { "\ty" } })
      h.eq("\ty", suggestion.state.shown.text)
      h.eq("        y", marks()[1].text, "a tab after x at column 8 reaches column 16")
    end)

    it(
      "uses the highlight option, and InfillSuggestion links to Comment unless a colorscheme says otherwise",
      function()
        require("infill").setup({ highlight = "MyGhost", keymaps = false })
        setup_buffer({ "x" }, { 1, 1 }, { { "yz" } })
        h.eq("MyGhost", marks()[1].hl)
        h.eq({ link = "Comment", default = true }, vim.api.nvim_get_hl(0, { name = "InfillSuggestion" }))
      end
    )

    it("hides when the cursor leaves the suggestion's place and comes back with it", function()
      setup_buffer({ "abc", "" }, { 1, 3 }, { { "def" } })
      h.eq(1, #marks())
      vim.api.nvim_win_set_cursor(0, { 2, 0 })
      suggestion.refresh()
      h.eq({}, marks())
      h.eq(false, suggestion.is_visible())
      vim.api.nvim_win_set_cursor(0, { 1, 3 })
      suggestion.refresh()
      h.eq(1, #marks())
    end)
  end)

  describe("accept", function()
    it("inserts the whole suggestion and puts the cursor after it", function()
      setup_buffer({ "  re", "}" }, { 1, 4 }, { { "turn a + b;" } })
      h.eq(true, suggestion.accept())
      h.eq({ "  return a + b;", "}" }, buffer())
      h.eq({ 1, 15 }, vim.api.nvim_win_get_cursor(0))
      h.eq({}, marks())
      h.eq(false, suggestion.accept(), "nothing left to accept")
    end)

    it("replaces the range it covers and handles several lines", function()
      setup_buffer({ "function f() {}", "" }, { 1, 14 }, { { "\n  return 1;\n}", 1 } })
      h.eq(true, suggestion.accept())
      h.eq({ "function f() {", "  return 1;", "}", "" }, buffer())
      h.eq({ 3, 1 }, vim.api.nvim_win_get_cursor(0))
    end)

    it("accept_word takes one word (or one run of punctuation) at a time", function()
      setup_buffer({ "x = " }, { 1, 4 }, { { "foo.bar_baz(1);" } })
      h.eq(true, suggestion.accept_word())
      h.eq({ "x = foo" }, buffer())
      h.eq(".bar_baz(1);", h.ghost_text(bufnr), "the rest stays visible")
      suggestion.accept_word()
      h.eq({ "x = foo." }, buffer())
      suggestion.accept_word()
      h.eq({ "x = foo.bar_baz" }, buffer())
      h.eq("(1);", h.ghost_text(bufnr))
    end)

    it("accept_line takes the rest of the line, then the next line", function()
      setup_buffer({ "if x {" }, { 1, 6 }, { { " y();\n  z();\n}" } })
      h.eq(true, suggestion.accept_line())
      h.eq({ "if x { y();" }, buffer())
      h.eq("\n  z();\n}", h.ghost_text(bufnr))
      suggestion.accept_line()
      h.eq({ "if x { y();", "  z();" }, buffer())
      h.eq({ 2, 6 }, vim.api.nvim_win_get_cursor(0))
      h.eq("\n}", h.ghost_text(bufnr))
    end)

    it("partial accepts keep the covered closer until the first line is done", function()
      setup_buffer({ "foo()" }, { 1, 4 }, { { "a, b);", 1 } })
      suggestion.accept_word()
      h.eq({ "foo(a)" }, buffer())
      suggestion.accept_line()
      h.eq({ "foo(a, b);" }, buffer())
      h.eq(false, suggestion.is_visible())
    end)
  end)

  describe("cycling", function()
    it("next() and prev() go round the items of the last answer", function()
      setup_buffer({ "x" }, { 1, 1 }, { { "1" }, { "2" }, { "3" } })
      h.eq("1", h.ghost_text(bufnr))
      h.eq(true, suggestion.next())
      h.eq("2", h.ghost_text(bufnr))
      suggestion.next()
      suggestion.next()
      h.eq("1", h.ghost_text(bufnr))
      suggestion.prev()
      h.eq("3", h.ghost_text(bufnr))
      h.eq(true, suggestion.accept())
      h.eq({ "x3" }, buffer())
    end)

    it("does nothing with a single item", function()
      setup_buffer({ "x" }, { 1, 1 }, { { "1" } })
      h.eq(false, suggestion.next())
      h.eq(false, suggestion.prev())
      h.eq("1", h.ghost_text(bufnr))
    end)
  end)

  describe("edits before the anchor", function()
    it("drop the remembered suggestion, so a line that looks the same does not get it", function()
      setup_buffer({ "foo(", "foo(", "foo(" }, { 2, 4 }, { { "a, b)" } })
      suggestion.attach(bufnr)
      h.eq("a, b)", h.ghost_text(bufnr))
      vim.api.nvim_buf_set_lines(bufnr, 0, 1, false, {}) -- a line deleted above: the anchor's line moves up
      vim.api.nvim_win_set_cursor(0, { 2, 4 }) -- the old third line, now at the anchor's row, looks the same
      h.eq(nil, suggestion.view())
      h.eq({}, suggestion.state.items)
      h.wait_for(function()
        return #marks() == 0
      end, 1000, "the ghost text cleared")
    end)

    it("drop it for an edit earlier on the anchor's line, too", function()
      setup_buffer({ "x = foo(" }, { 1, 8 }, { { "a)" } })
      suggestion.attach(bufnr)
      vim.api.nvim_buf_set_text(bufnr, 0, 0, 0, 1, { "y" })
      h.eq({}, suggestion.state.items)
    end)

    it("keep it for typing at the anchor and for edits after or below it", function()
      setup_buffer({ "x = 1", "foo(", "" }, { 2, 4 }, { { "a, b)" } })
      suggestion.attach(bufnr)
      vim.api.nvim_buf_set_text(bufnr, 2, 0, 2, 0, { "below" })
      vim.api.nvim_buf_set_text(bufnr, 1, 4, 1, 4, { "a" })
      vim.api.nvim_win_set_cursor(0, { 2, 5 })
      h.eq(", b)", suggestion.view().text)
      suggestion.refresh()
      h.eq(", b)", h.ghost_text(bufnr))
    end)

    it("ignore the answer to a request made before the change", function()
      setup_buffer({ "", "foo(" }, { 2, 4 }, {})
      suggestion.attach(bufnr)
      local seq = suggestion.state.seq
      suggestion.state.inflight = { client_id = 0, id = 1, seq = seq, bufnr = bufnr, row = 1, col = 4 }
      vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { "import x" }) -- a line added above
      h.eq(nil, suggestion.state.inflight)
      h.eq(false, suggestion.busy())
      vim.api.nvim_win_set_cursor(0, { 2, 4 })
      local req = { row = 1, col = 4, line = "foo(", encoding = "utf-8", client_id = 0 }
      suggestion.on_result(seq, bufnr, req, nil, { items = { { insertText = "a)" } } })
      h.eq({}, marks())
      h.eq({}, suggestion.state.items)
    end)

    it("are not followed in a buffer the client detached from, and are again once it attaches", function()
      setup_buffer({ "", "foo(" }, { 2, 4 }, { { "a)" } })
      local items = vim.deepcopy(suggestion.state.items)
      suggestion.attach(bufnr)
      suggestion.attach(bufnr) -- again: still followed once
      suggestion.detach(bufnr)
      suggestion.state.bufnr, suggestion.state.items = bufnr, vim.deepcopy(items)
      vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { "above" })
      h.eq(1, #suggestion.state.items, "a detached buffer's edits are not followed")
      suggestion.attach(bufnr)
      items[1].row = 2
      suggestion.state.items = vim.deepcopy(items)
      vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { "above" })
      h.eq({}, suggestion.state.items)
    end)
  end)

  describe("answers", function()
    local req = { row = 0, col = 3, line = "aé😀)", encoding = "utf-16", client_id = 7 }

    it("converts ranges from the negotiated encoding to bytes", function()
      -- Cursor after "aé" (3 bytes, 2 UTF-16 units); the item replaces the emoji (2 units) and the ")".
      local items = suggestion.items_from_result({
        items = {
          {
            insertText = "xyz)",
            range = { start = { line = 0, character = 2 }, ["end"] = { line = 0, character = 5 } },
          },
        },
      }, req)
      h.eq({
        { row = 0, col = 3, prefix = "aé", rest = "😀)", text = "xyz)", replace = 5, client_id = 7 },
      }, items)
    end)

    it("accepts a bare item list, items without range, and drops unusable items", function()
      local items = suggestion.items_from_result({
        { insertText = "a" },
        { insertText = "" },
        {
          insertText = "b",
          range = { start = { line = 3, character = 0 }, ["end"] = { line = 3, character = 0 } },
        },
        { insertText = { kind = "snippet", value = "c" } },
      }, req)
      h.eq(
        { "a", "c" },
        vim.tbl_map(function(i)
          return i.text
        end, items)
      )
      h.eq(3, items[1].col)
    end)

    describe("partial results", function()
      local at_abc = { row = 0, col = 3, line = "abc", encoding = "utf-8", client_id = 1 }
      local renders
      local render = suggestion.render
      before_each(function()
        -- The redraws of one test must not hold back the next one's first.
        h.wait_for(suggestion.redraw_partial.idle, 1000, "the partial redraws of the last test to be over")
        renders = {}
        suggestion.render = function(view)
          table.insert(renders, { at = vim.uv.hrtime() / 1e6, text = view.text })
          return render(view)
        end
      end)
      after_each(function()
        suggestion.render = render
      end)

      --- A request in flight for the cursor at the end of "abc", asking for partial results as "t1".
      local function inflight()
        setup_buffer({ "abc" }, { 1, 3 }, {})
        suggestion.cancel()
        local seq = suggestion.state.seq
        suggestion.state.inflight =
          { client_id = 1, id = 9, seq = seq, bufnr = bufnr, row = 0, col = 3, req = at_abc, token = "t1" }
        return seq
      end
      local function partial(text, token)
        suggestion.on_partial({ token = token or "t1", items = { { insertText = text } } }, 1)
      end

      it("draws the lines of the request in flight, and nothing for another token or client", function()
        inflight()
        partial("\nx", "t0")
        suggestion.on_partial({ token = "t1", items = { { insertText = "\nx" } } }, 2)
        h.eq(nil, h.ghost_text(bufnr))
        partial("\nx")
        h.eq("\nx", h.ghost_text(bufnr))
        h.eq(true, suggestion.busy(), "still in flight")
      end)

      it("redraws at most once per 30 ms, the latest lines last", function()
        inflight()
        for i = 1, 6 do
          partial("\n" .. ("l\n"):rep(i - 1) .. "l")
        end
        h.eq(1, #renders, "the first at once")
        h.wait_for(function()
          return #renders == 2
        end, 1000, "the second redraw")
        -- Stamped a few µs after the throttle reads its clock: to the 0.1 ms.
        h.ok(renders[2].at - renders[1].at >= 29.9, ("%.1f ms apart"):format(renders[2].at - renders[1].at))
        h.eq("\n" .. ("l\n"):rep(5) .. "l", h.ghost_text(bufnr))
        vim.wait(50)
        h.eq(2, #renders)
      end)

      it(
        "the answer draws at once and drops a waiting redraw; an empty answer keeps the lines shown",
        function()
          local seq = inflight()
          partial("\na")
          partial("\na\nb")
          suggestion.on_result(seq, bufnr, at_abc, nil, { items = { { insertText = "\na\nb\nc" } } })
          h.eq("\na\nb\nc", h.ghost_text(bufnr))
          vim.wait(50)
          h.eq("\na\nb\nc", h.ghost_text(bufnr), "no late partial redraw")
          seq = inflight()
          partial("\na")
          suggestion.on_result(seq, bufnr, at_abc, nil, { items = {} })
          h.eq("\na", h.ghost_text(bufnr), "a stream that failed after a line: the line stays")
        end
      )

      it("ignores partial results once the request is cancelled or dismissed", function()
        inflight()
        partial("\na")
        partial("\na\nb") -- waits for its redraw
        suggestion.dismiss()
        partial("\na\nb\nc")
        vim.wait(50)
        h.eq(nil, h.ghost_text(bufnr))
        h.eq(1, #renders)
      end)

      it(
        "accepting a line of a partial result keeps the request, and the next lines extend what is left",
        function()
          inflight()
          partial("\n  one")
          h.ok(suggestion.accept_line())
          h.eq({ "abc", "  one" }, buffer())
          h.eq(true, suggestion.busy(), "the request still streams")
          partial("\n  one\n  two")
          h.wait_for(function()
            return h.ghost_text(bufnr) == "\n  two"
          end, 1000, "the next line, past what was accepted")
        end
      )
    end)

    it("ignores answers to superseded requests", function()
      setup_buffer({ "abc" }, { 1, 3 }, {})
      local seq = suggestion.state.seq
      suggestion.cancel() -- what a newer request does
      suggestion.on_result(
        seq,
        bufnr,
        { row = 0, col = 3, line = "abc", encoding = "utf-8", client_id = 1 },
        nil,
        {
          items = { { insertText = "def" } },
        }
      )
      h.eq({}, marks())
      suggestion.on_result(
        suggestion.state.seq,
        bufnr,
        { row = 0, col = 3, line = "abc", encoding = "utf-8", client_id = 1 },
        nil,
        {
          items = { { insertText = "def" } },
        }
      )
      h.eq("def", h.ghost_text(bufnr))
    end)
  end)
end)
