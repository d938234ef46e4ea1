-- End to end: `:checkhealth infill` asks the built infill-lsp for the providers it knows (`infill/providers`) and
-- sends a tiny request through it (`infill/probe`), to @infill/sim speaking DeepSeek (INFILL_BASE_URL) or Ollama
-- (INFILL_TEST_OLLAMA_URL); each failure's hint comes from the kind the server gives it.
local h = require("helpers")

local infill = require("infill")
local lsp = require("infill.lsp")

local checkhealth = h.checkhealth

--- A port on this machine where nothing listens (taken from the system, then let go).
---@return integer
local function closed_port()
  local server = assert(vim.uv.new_tcp())
  assert(server:bind("127.0.0.1", 0))
  local port = server:getsockname().port
  server:close()
  return port
end

describe(":checkhealth infill sends a test request", function()
  local base_url = vim.env.INFILL_BASE_URL
  h.capture_notify()

  after_each(function()
    h.stop_clients()
    vim.env.INFILL_BASE_URL = base_url
  end)

  it(
    "with no server running: starts one, names DeepSeek and its base URL, and the request succeeds",
    function()
      infill.setup({ settings = { debounceMs = 0 } })
      local text = checkhealth()
      h.contains(text, 'provider "deepseek" (DeepSeek)')
      h.contains(text, "DEEPSEEK_API_KEY is set")
      h.contains(text, "base URL: " .. vim.env.INFILL_BASE_URL)
      h.contains(
        text,
        "test request to DeepSeek at " .. vim.env.INFILL_BASE_URL .. " (model deepseek-v4-flash): answered in"
      )
      h.contains(text, "no errors reported")
      h.eq(0, #lsp.clients(), "the short-lived server is gone")
    end
  )

  it("codestral without its key: the key variable and the default base URL come from the server", function()
    vim.env.INFILL_BASE_URL = nil
    infill.setup({ settings = { provider = "codestral" } })
    local text = checkhealth()
    h.contains(text, 'provider "codestral" (Codestral)')
    h.contains(text, "CODESTRAL_API_KEY is not set")
    h.contains(h.advice(text, "CODESTRAL_API_KEY is not set"), "export CODESTRAL_API_KEY")
    h.contains(text, "base URL: https://codestral.mistral.ai/v1 (default)")
    h.contains(
      text,
      "test request to Codestral at https://codestral.mistral.ai/v1 (model codestral-latest) failed"
    )
    h.contains(h.advice(text, "test request to Codestral"), "export CODESTRAL_API_KEY")
  end)

  it("with a server running: asks it", function()
    infill.setup({ settings = { debounceMs = 0 } })
    local project = h.project("health-probe")
    h.edit(project .. "/a.js", { "const x = 1;" })
    h.wait_for(function()
      local client = lsp.get_client(0)
      return client and client.initialized
    end, 10000, "the infill client to attach and initialize")
    local text = checkhealth()
    h.contains(text, "server reachable")
    h.contains(text, 'provider "deepseek" (DeepSeek)')
    h.contains(text, "test request to DeepSeek at " .. vim.env.INFILL_BASE_URL)
    h.contains(text, "answered in")
  end)

  it("ollama: no key needed, its base URL and default model, and the request succeeds", function()
    local url = vim.env.INFILL_TEST_OLLAMA_URL
    infill.setup({ settings = { provider = "ollama", baseUrl = url } })
    local text = checkhealth()
    h.contains(text, 'provider "ollama" (Ollama)')
    h.contains(text, "ollama takes no key")
    h.contains(text, "base URL: " .. url)
    h.contains(text, "test request to Ollama at " .. url .. " (model qwen2.5-coder:1.5b-base): answered in")
  end)

  it(
    "ollama with a model that is not pulled: the failure, and `ollama pull <model>` as the advice",
    function()
      local url = vim.env.INFILL_TEST_OLLAMA_URL
      infill.setup({ settings = { provider = "ollama", baseUrl = url, model = "mistral" } })
      local text = checkhealth()
      h.contains(
        text,
        "test request to Ollama at " .. url .. " (model mistral) failed: infill: Ollama has no model"
      )
      h.contains(h.advice(text, "test request to Ollama"), "`ollama pull mistral`")
    end
  )

  it("ollama not running (a refused connection): start the provider's server", function()
    local url = "http://127.0.0.1:" .. closed_port()
    infill.setup({ settings = { provider = "ollama", baseUrl = url } })
    local text = checkhealth()
    h.contains(text, "test request to Ollama at " .. url .. " (model qwen2.5-coder:1.5b-base) failed")
    h.contains(h.advice(text, "test request to Ollama"), "start the provider's server (`ollama serve`")
  end)

  it("the last message: a server's failure gets the hint of the kind the server gives it", function()
    local url = vim.env.INFILL_TEST_OLLAMA_URL
    lsp.state.last_error = nil
    infill.setup({ settings = { provider = "ollama", baseUrl = url, model = "mistral", debounceMs = 0 } })
    h.edit_and_append(h.project("health-last") .. "/a.js", h.ADD_SUB, { 6, 2 })
    h.type("r")
    h.wait_for(function()
      return lsp.state.last_error ~= nil
    end, 10000, "the server's message about the model")
    h.escape()
    h.eq(nil, lsp.state.last_error.kind, "a server's message, which the plugin does not classify")
    local text = checkhealth()
    h.contains(text, "last message")
    h.contains(text, "Ollama has no model")
    h.contains(h.advice(text, "last message"), "`ollama pull mistral`")
  end)
end)
