-- End to end without DEEPSEEK_API_KEY: the server answers nothing and says so once; the user hears it once.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local lsp = require("infill.lsp")
local suggestion = require("infill.suggestion")

local notifications = h.capture_notify()

local function key_notifications()
  return vim.tbl_filter(function(n)
    return n.msg:find("DEEPSEEK_API_KEY", 1, true) ~= nil
  end, notifications)
end

local function key_messages_received()
  return #vim.tbl_filter(function(line)
    return line:find("DEEPSEEK_API_KEY", 1, true) ~= nil
  end, lsp.state.log)
end

local function wait_client()
  return h.wait_for(function()
    local client = lsp.get_client(0)
    return client and client.initialized and client
  end, 10000, "the infill client to attach and initialize")
end

-- Count answered requests.
local answers = 0
local on_result = suggestion.on_result
suggestion.on_result = function(seq, ...)
  if seq == suggestion.state.seq then
    answers = answers + 1
  end
  return on_result(seq, ...)
end

describe("without DEEPSEEK_API_KEY", function()
  it("one notification, however many requests and servers", function()
    eq(nil, vim.env.DEEPSEEK_API_KEY, "the test runs without a key")
    infill.setup({ settings = { debounceMs = 0 } })
    local project = h.project("nokey")
    h.edit(
      project .. "/a.js",
      { "function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {", "  ", "}" },
      { 6, 2 }
    )
    wait_client()
    h.wait_for(function()
      return #key_notifications() > 0
    end, nil, "the missing-key notification")
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    for _, ch in ipairs({ "r", "e", "t" }) do
      local before = answers
      h.type(ch)
      h.wait_for(function()
        return answers > before and not suggestion.busy()
      end, nil, "an answer to the request after typing " .. ch)
    end
    eq(nil, h.ghost_text(), "no suggestion without a key")
    h.escape()

    -- A second server (another root) says it again; the user still hears it once.
    local other = h.project("nokey-2")
    h.edit(other .. "/b.js", { "const x = 1;" })
    local second = wait_client()
    eq(2, #lsp.clients())
    h.wait_for(function()
      return key_messages_received() >= 2
    end, nil, "the second server's message")
    ok(second)

    local got = key_notifications()
    eq(1, #got, "notifications about the key")
    eq(vim.log.levels.WARN, got[1].level)
    h.contains(got[1].msg, "DEEPSEEK_API_KEY")
  end)

  it(":checkhealth infill shows the missing key, and the last message with the hint of its kind", function()
    local text = h.checkhealth()
    h.contains(text, "server reachable")
    h.contains(h.advice(text, "DEEPSEEK_API_KEY is not set"), "export DEEPSEEK_API_KEY")
    h.contains(h.advice(text, "test request to DeepSeek"), "export DEEPSEEK_API_KEY")
    -- The server's message, recorded by the plugin; the server said its kind (`no-key`) in infill/probe.
    h.contains(text, "last message")
    h.contains(h.advice(text, "last message"), "export DEEPSEEK_API_KEY")
  end)

  it("setup({ env = ... }) hands the server a key the editor's environment lacks", function()
    h.stop_clients()
    infill.setup({ env = { DEEPSEEK_API_KEY = "sk-test" }, settings = { debounceMs = 0 } })
    local before = #notifications
    local project = h.project("with-env-key")
    h.edit(project .. "/c.js", h.ADD_SUB, { 6, 2 })
    wait_client()
    h.append_and_wait_ghost("r", "eturn a + b;")
    h.escape()
    eq(before, #notifications, "no new notification")
    eq(nil, vim.env.DEEPSEEK_API_KEY, "the editor's own environment is unchanged")
  end)
end)
