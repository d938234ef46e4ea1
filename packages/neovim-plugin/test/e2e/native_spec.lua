-- use_native: on 0.12+ the built-in vim.lsp.inline_completion draws the ghost text; on 0.10 the option is refused
-- once and the plugin's own rendering is used.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local lsp = require("infill.lsp")

local notifications = h.capture_notify()
infill.setup({ use_native = true, settings = { debounceMs = 0 } })

local NATIVE_NS = "nvim.lsp.inline_completion"
local ADD_SUB = { "function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {", "  ", "}" }
local n = 0

local function start()
  n = n + 1
  -- A project per test: earlier tests' files stay open and would be similar code in the prompt.
  h.edit_and_append(("%s/f%d.js"):format(h.project("native" .. n), n), ADD_SUB, { 6, 2 })
end

local function native_only()
  if not vim.lsp.inline_completion then
    h.skip("no vim.lsp.inline_completion before Neovim 0.12")
  end
end

describe("use_native", function()
  after_each(function()
    if vim.api.nvim_get_mode().mode ~= "n" then
      h.escape()
    end
  end)

  it("on Neovim 0.10 is refused once, with the plugin's rendering instead", function()
    if vim.lsp.inline_completion then
      eq({}, notifications)
      eq(true, require("infill.config").options.use_native)
      return
    end
    eq(1, #notifications)
    h.contains(notifications[1].msg, "use_native")
    eq(false, require("infill.config").options.use_native)
    start()
    h.type("r")
    h.wait_for(function()
      return h.ghost_text() == "eturn a + b;"
    end, nil, "the plugin's ghost text")
  end)

  it("shows the suggestion through vim.lsp.inline_completion and <M-l> accepts it", function()
    native_only()
    start()
    h.type("r")
    h.wait_for(
      function()
        return h.ghost_text(0, NATIVE_NS) == "eturn a + b;"
      end,
      nil,
      function()
        return "the built-in ghost text (shown: " .. vim.inspect(h.ghost_text(0, NATIVE_NS)) .. ")"
      end
    )
    eq(nil, h.ghost_text(), "the plugin's own rendering stays off")
    ok(infill.is_visible())
    h.input("<M-l>", function()
      return vim.api.nvim_get_current_line() == "  return a + b;"
    end, "the accepted line")
    eq({ 6, 15 }, vim.api.nvim_win_get_cursor(0))
  end)

  it("dismiss() clears the built-in ghost text", function()
    native_only()
    start()
    h.type("r")
    h.wait_for(function()
      return h.ghost_text(0, NATIVE_NS) ~= nil
    end, nil, "the built-in ghost text")
    ok(infill.dismiss())
    eq(nil, h.ghost_text(0, NATIVE_NS))
    eq(false, infill.is_visible())
  end)

  it("accept_word() inserts one word", function()
    native_only()
    start()
    h.type("r")
    h.wait_for(function()
      return h.ghost_text(0, NATIVE_NS) == "eturn a + b;"
    end, nil, "the built-in ghost text")
    ok(infill.accept_word())
    h.wait_for(function()
      return vim.api.nvim_get_current_line() == "  return"
    end, nil, "one word accepted")
  end)

  it(
    "reports accept_word() itself, and Neovim runs the item's infill.accepted when it inserts the rest",
    function()
      native_only()
      start()
      local usage = require("infill.usage")
      local totals = function()
        return assert(usage.fetch(lsp.get_client(0))).total
      end
      local before = totals()
      h.type("r")
      h.wait_for(function()
        return h.ghost_text(0, NATIVE_NS) == "eturn a + b;"
      end, nil, "the built-in ghost text")
      ok(infill.accept_word())
      h.wait_for(function()
        local t = totals()
        return t.acceptedPartly == before.acceptedPartly + 1 and t.accepted == before.accepted
      end, nil, "the word counted as the suggestion taken in part")
      h.wait_for(function()
        return h.ghost_text(0, NATIVE_NS) == " a + b;"
      end, nil, "the rest shown")
      h.input("<M-l>", function()
        return vim.api.nvim_get_current_line() == "  return a + b;"
      end, "the rest accepted")
      h.wait_for(function()
        local t = totals()
        return t.accepted == before.accepted + 1 and t.acceptedPartly == before.acceptedPartly
      end, nil, "the suggestion counted taken whole")
    end
  )
end)
