-- End to end: `:checkhealth infill` names the provider and its base URL and sends a tiny request through the
-- built infill-lsp, to @infill/sim speaking DeepSeek (INFILL_BASE_URL) or Ollama (INFILL_TEST_OLLAMA_URL).
local h = require("helpers")

local infill = require("infill")

local checkhealth = h.checkhealth

describe(":checkhealth infill sends a test request", function()
  after_each(function()
    h.stop_clients()
  end)

  it(
    "with no server running: starts one, names DeepSeek and its base URL, and the request succeeds",
    function()
      infill.setup({ settings = { debounceMs = 0 } })
      local text = checkhealth()
      h.contains(text, 'provider "deepseek"')
      h.contains(text, "DEEPSEEK_API_KEY is set")
      h.contains(text, "base URL: " .. vim.env.INFILL_BASE_URL)
      h.contains(
        text,
        "test request to DeepSeek at " .. vim.env.INFILL_BASE_URL .. " (model deepseek-v4-flash): answered in"
      )
      h.eq(0, #require("infill.lsp").clients(), "the short-lived server is gone")
    end
  )

  it("with a server running: asks it", function()
    infill.setup({ settings = { debounceMs = 0 } })
    local project = h.project("health-probe")
    h.edit(project .. "/a.js", { "const x = 1;" })
    h.wait_for(function()
      local client = require("infill.lsp").get_client(0)
      return client and client.initialized
    end, 10000, "the infill client to attach and initialize")
    local text = checkhealth()
    h.contains(text, "server reachable")
    h.contains(text, "test request to DeepSeek at " .. vim.env.INFILL_BASE_URL)
    h.contains(text, "answered in")
  end)

  it("ollama: no key needed, its base URL and default model, and the request succeeds", function()
    local url = vim.env.INFILL_TEST_OLLAMA_URL
    infill.setup({ settings = { provider = "ollama", baseUrl = url } })
    local text = checkhealth()
    h.contains(text, 'provider "ollama"')
    h.contains(text, "ollama takes no key")
    h.contains(text, "base URL: " .. url)
    h.contains(text, "test request to Ollama at " .. url .. " (model qwen2.5-coder:1.5b-base): answered in")
  end)

  it("ollama with a model that is not pulled: the failure, and `ollama pull` as the advice", function()
    local url = vim.env.INFILL_TEST_OLLAMA_URL
    infill.setup({ settings = { provider = "ollama", baseUrl = url, model = "mistral" } })
    local text = checkhealth()
    h.contains(
      text,
      "test request to Ollama at " .. url .. " (model mistral) failed: infill: Ollama has no model"
    )
    h.contains(text, "ollama pull")
  end)
end)
