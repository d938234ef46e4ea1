-- End to end: the built infill-lsp, launched by the plugin, against @infill/sim (INFILL_BASE_URL and
-- DEEPSEEK_API_KEY come from the test's environment), driven by keys typed through Neovim's input queue.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local suggestion = require("infill.suggestion")

local ADD_SUB = {
  "function add(a, b) {",
  "  return a + b;",
  "}",
  "",
  "function sub(a, b) {",
  "  ",
  "}",
}

local notifications = h.capture_notify()
infill.setup({ settings = { debounceMs = 10 } })

local n = 0

--- Edit a new file with `lines` and the cursor at `cursor`, in a project of its own: the files of earlier tests
--- stay open, and in the same project they would be similar code in the prompt (repository context), which the
--- sim's prompt lookup would copy from.
local function edit(lines, cursor, ext)
  n = n + 1
  return h.edit(("%s/file%d.%s"):format(h.project("ghost" .. n), n, ext or "js"), lines, cursor)
end

local function wait_client()
  return h.wait_for(function()
    local client = require("infill.lsp").get_client(0)
    return client and client.initialized and client
  end, 10000, "the infill client to attach and initialize")
end

--- Wait for ghost text equal to `expected`.
local function wait_ghost(expected, timeout)
  return h.wait_for(
    function()
      local g = h.ghost()
      return g and g.text == expected and g
    end,
    timeout,
    function()
      return ("ghost text %s (shown: %s)"):format(vim.inspect(expected), vim.inspect(h.ghost_text()))
    end
  )
end

--- Wait until no request is pending or in flight.
local function wait_idle()
  h.wait_for(function()
    return not suggestion.busy()
  end, nil, "requests to settle")
end

local function line()
  return vim.api.nvim_get_current_line()
end

describe("ghost text", function()
  after_each(function()
    if vim.api.nvim_get_mode().mode ~= "n" then
      h.escape()
    end
    infill.dismiss()
  end)

  it("appears while typing in insert mode (autocmd path) and accept() inserts exactly it", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    local g = wait_ghost("eturn a + b;")
    eq({ 5, 3, "inline" }, { g.row, g.col, g.pos }, "drawn inline at the cursor")
    ok(infill.is_visible(), "is_visible()")
    -- The default keymap <M-l> calls accept().
    h.input("<M-l>", function()
      return line() == "  return a + b;"
    end, "the accepted line")
    eq({ 6, 15 }, vim.api.nvim_win_get_cursor(0), "cursor after the inserted text")
    eq(nil, h.ghost_text(), "no ghost text right after accepting")
    eq(ADD_SUB[5], vim.api.nvim_buf_get_lines(0, 4, 5, false)[1])
    eq(ADD_SUB[7], vim.api.nvim_buf_get_lines(0, 6, 7, false)[1])
    eq(7, vim.api.nvim_buf_line_count(0))
  end)

  it("follows typing from memory at each keystroke and keeps the rest visible", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    wait_ghost("eturn a + b;")
    wait_idle()
    local full = "return a + b;"
    h.type("etu", function(typed)
      -- Checked as soon as the key landed, before any answer could come back: shown from memory.
      eq(full:sub(#typed + 2), h.ghost_text(), "ghost text right after typing " .. vim.inspect(typed))
    end)
    wait_idle()
    eq("rn a + b;", h.ghost_text(), "ghost text after the server answered")
    h.input("<M-l>", function()
      return line() == "  return a + b;"
    end, "the accepted line")
    eq(7, vim.api.nvim_buf_line_count(0))
  end)

  it("disappears as soon as the text no longer matches", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    wait_ghost("eturn a + b;")
    h.type("x", function()
      eq(nil, h.ghost_text(), "ghost text right after typing a character that diverges")
      eq(false, infill.is_visible())
    end)
  end)

  it("dismiss() clears it and ignores the answer in flight; typing asks again", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    wait_ghost("eturn a + b;")
    -- The default keymap <C-]> calls dismiss(); type on and dismiss while a request may be in flight.
    h.type("e")
    h.input("<C-]>", function()
      return h.ghost_text() == nil
    end, "no ghost text after <C-]>")
    eq(false, infill.is_visible())
    wait_idle()
    eq(nil, h.ghost_text(), "still hidden once requests settled")
    eq("  re", line(), "dismiss does not touch the text")
    h.type("t")
    wait_ghost("urn a + b;")
    ok(infill.dismiss(), "dismiss() returns true when something was shown")
    eq(nil, h.ghost_text())
    eq(false, infill.dismiss(), "dismiss() returns false when nothing was shown")
  end)

  it("leaving insert mode clears it", function()
    -- At column 0 <Esc> does not move the cursor, so only InsertLeave can clear it.
    edit({ "function add(a, b) {", "  return a + b;", "}", "", "function add2(a, b) {", "", "}" }, { 6, 0 })
    wait_client()
    h.input("i", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    wait_ghost("  return a + b;")
    h.escape()
    eq({ 6, 0 }, vim.api.nvim_win_get_cursor(0))
    eq(nil, h.ghost_text(), "no ghost text in normal mode")
    eq(false, infill.is_visible())
    eq(false, suggestion.busy(), "nothing pending after InsertLeave")
    eq("", line())
  end)

  it("shows a multi-line suggestion as virtual lines and accepts it over the auto-paired closer", function()
    local bufnr = edit(
      { "function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {}" },
      { 5, 19 }
    )
    wait_client()
    h.input("a", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    local g = wait_ghost("\n  return a + b;\n}")
    eq({ 4, 20 }, { g.row, g.col })
    local virt_lines, overlay
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, suggestion.ns, 0, -1, { details = true })) do
      virt_lines = virt_lines or mark[4].virt_lines
      if mark[4].virt_text_pos == "overlay" then
        overlay = { mark[3], mark[4].virt_text[1][1] }
      end
    end
    eq({ { { "  return a + b;", "InfillSuggestion" } }, { { "}", "InfillSuggestion" } } }, virt_lines)
    eq({ 20, " " }, overlay, "the closer it replaces is blanked out")
    ok(infill.accept(), "accept() returns true")
    eq(
      {
        "function add(a, b) {",
        "  return a + b;",
        "}",
        "",
        "function sub(a, b) {",
        "  return a + b;",
        "}",
      },
      vim.api.nvim_buf_get_lines(bufnr, 0, -1, false),
      "the buffer after accept: the closer replaced, not doubled"
    )
    eq({ 7, 1 }, vim.api.nvim_win_get_cursor(0), "cursor at the end of the inserted text")
    eq(false, infill.accept(), "accept() with nothing shown returns false")
  end)

  it("accept_word() and accept_line() insert part and keep the rest visible", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    wait_ghost("eturn a + b;")
    wait_idle()
    h.input("<M-Right>", function()
      return line() == "  return"
    end, "accept_word via <M-Right>")
    eq(" a + b;", h.ghost_text(), "the rest, from memory, right after")
    wait_idle()
    ok(infill.accept_word())
    eq("  return a", line())
    eq(" + b;", h.ghost_text())
    ok(infill.accept_line())
    eq("  return a + b;", line())
    eq({ 6, 15 }, vim.api.nvim_win_get_cursor(0))
    eq(nil, h.ghost_text())
  end)

  it("suggest() asks at the cursor from normal mode, and accept() inserts there", function()
    local bufnr = edit(ADD_SUB, { 6, 1 })
    wait_client()
    eq("n", vim.api.nvim_get_mode().mode)
    vim.api.nvim_win_set_cursor(0, { 6, 2 }) -- past the end in normal mode clamps to the last space
    local col = vim.api.nvim_win_get_cursor(0)[2]
    ok(infill.suggest(), "suggest() sends a request")
    local g = h.wait_for(function()
      return h.ghost()
    end, nil, "ghost text in normal mode")
    eq({ 5, col }, { g.row, g.col })
    ok(infill.accept())
    ok(vim.api.nvim_buf_get_lines(bufnr, 5, 6, false)[1]:find("%S"), "something was inserted on the line")
    vim.cmd("silent! undo")
    eq(ADD_SUB, vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "one undo step takes the insertion back")
  end)

  it("asks nothing while disabled (:Infill disable) and again after :Infill enable", function()
    edit(ADD_SUB, { 6, 2 })
    local client = wait_client()
    vim.cmd("Infill disable")
    eq(false, infill.is_enabled())
    eq(false, client.settings.infill.enable, "the server is told too (its popup completions stop)")
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    eq(false, suggestion.busy(), "no request while disabled")
    eq(nil, h.ghost_text())
    eq(false, infill.suggest(), "suggest() does nothing while disabled")
    vim.cmd("Infill toggle")
    eq(true, infill.is_enabled())
    eq(true, client.settings.infill.enable)
    h.type("e")
    wait_ghost("turn a + b;")
  end)

  it("popup completion works through the ordinary LSP source (built-in omnifunc)", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    eq("v:lua.vim.lsp.omnifunc", vim.bo.omnifunc)
    vim.o.completeopt = "menuone,noinsert"
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("r")
    wait_ghost("eturn a + b;")
    h.input("<C-x><C-o>", function()
      return vim.fn.pumvisible() == 1
    end, "the completion menu")
    local words = vim.tbl_map(function(item)
      return item.word
    end, vim.fn.complete_info({ "items" }).items)
    ok(vim.tbl_contains(words, "return a + b;"), "menu items: " .. vim.inspect(words))
    h.input("<C-e>", function()
      return vim.fn.pumvisible() == 0
    end, "the menu to close")
  end)

  it(":Infill status tells what runs", function()
    edit(ADD_SUB, { 6, 2 })
    local client = wait_client()
    local out = vim.api.nvim_exec2("Infill status", { output = true }).output
    h.contains(out, "infill: enabled, plugin ghost text, auto-trigger on")
    h.contains(out, "infill-lsp.js --stdio (monorepo)")
    h.contains(out, ("client %d: infill-lsp 0.0.0"):format(client.id))
    h.contains(out, "(this buffer)")
  end)

  it("starts one client per project root and reuses it within a root", function()
    local a = h.project("root-a")
    local b = h.project("root-b")
    h.edit(a .. "/one.js", { "const a = 1;" })
    local c1 = wait_client()
    h.edit(a .. "/sub/two.js", { "const b = 2;" })
    local c2 = wait_client()
    eq(c1.id, c2.id, "same root, same client")
    h.edit(b .. "/three.js", { "const c = 3;" })
    local c3 = wait_client()
    ok(c3.id ~= c1.id, "another root, another client")
    eq(vim.fs.normalize(b), vim.fs.normalize(c3.root_dir or c3.config.root_dir))
    h.edit(b .. "/notes.gitcommit", { "" })
    vim.bo.filetype = "gitcommit"
    eq(nil, require("infill.lsp").get_client(0), "gitcommit is not served by default")
    local roots = vim.tbl_map(function(c)
      return vim.fs.normalize(c.root_dir or c.config.root_dir)
    end, require("infill.lsp").clients())
    -- Each test's project has its client too; none has two, and the two roots here have one each.
    local count = {}
    for _, root in ipairs(roots) do
      count[root] = (count[root] or 0) + 1
      eq(1, count[root], "one client per root: " .. root)
    end
    eq(1, count[vim.fs.normalize(a)], "a client for root-a")
    eq(1, count[vim.fs.normalize(b)], "a client for root-b")
    eq({}, notifications, "no notifications along the way")
  end)

  it(":checkhealth infill reports the server, its version and the key", function()
    edit(ADD_SUB, { 6, 2 })
    wait_client()
    vim.cmd("checkhealth infill")
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
    vim.cmd("bwipeout!")
    h.contains(text, "infill-lsp 0.0.0")
    h.contains(text, "server reachable")
    h.contains(text, "DEEPSEEK_API_KEY is set")
    h.contains(text, "no errors reported")
  end)
end)
