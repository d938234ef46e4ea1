local h = require("helpers")
local health = require("infill.health")
local lsp = require("infill.lsp")

local checkhealth = h.checkhealth

describe("health", function()
  it("before setup(): says to call it", function()
    local text = checkhealth()
    h.contains(text, "setup() has not been called")
    h.contains(text, "Neovim " .. vim.version().major .. "." .. vim.version().minor)
  end)

  --- A fake server: answers `--version`, and otherwise runs `rest` (a shell command).
  local function fake_server(rest)
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    local fake = dir .. "/fake-lsp"
    vim.fn.writefile(
      { "#!/bin/sh", 'if [ "$1" = "--version" ]; then echo 9.9.9; else ' .. rest .. "; fi" },
      fake
    )
    vim.fn.setfperm(fake, "rwxr-xr-x")
    return fake
  end

  it("runs the server with --version; a server that cannot be asked is said so plainly", function()
    local fake = fake_server("exit 3")
    vim.env.DEEPSEEK_API_KEY = nil
    vim.env.INFILL_BASE_URL = "http://127.0.0.1:9/beta"
    require("infill").setup({ cmd = { fake, "--stdio" }, filetypes = { ["*"] = false } })
    lsp.report(1, "infill: DeepSeek rejected the API key (401 Unauthorized).")
    local text = checkhealth()
    h.contains(text, "infill-lsp 9.9.9")
    h.contains(
      text,
      "no server could be asked for the providers it knows and their defaults (key variable, base URL, model): "
        .. "the server exited (code 3)"
    )
    h.contains(text, "base URL: http://127.0.0.1:9/beta")
    h.contains(text, "could not send a test request: the server exited (code 3)")
    -- No kind for a server's message without the server to say it: no guess from its words.
    h.contains(h.advice(text, "last message"), "see :Infill log")
    h.ok(not text:find("DEEPSEEK_API_KEY", 1, true), "no key variable of the plugin's own")
  end)

  it("settings.apiKeyEnv is checked without a server", function()
    require("infill").setup({
      cmd = { fake_server("exit 3"), "--stdio" },
      filetypes = { ["*"] = false },
      settings = { apiKeyEnv = "MY_KEY_VARIABLE" },
    })
    local text = checkhealth()
    h.contains(text, "MY_KEY_VARIABLE is not set")
    h.contains(h.advice(text, "MY_KEY_VARIABLE is not set"), "export MY_KEY_VARIABLE")
  end)

  it("a server that does not answer the test request in time: its own hint", function()
    require("infill").setup({
      cmd = { fake_server("exec cat >/dev/null"), "--stdio" },
      filetypes = { ["*"] = false },
      settings = { timeoutMs = 100 },
    })
    local text = checkhealth()
    h.contains(text, "could not send a test request: no answer within 5100 ms")
    h.contains(h.advice(text, "could not send a test request"), "larger settings.timeoutMs")
  end)

  it("the last message of the plugin's own: the hint of its kind", function()
    require("infill").setup({ cmd = { fake_server("exit 3"), "--stdio" }, filetypes = { ["*"] = false } })
    lsp.report(1, "infill: the server exited with code 1; see :Infill log", { kind = "server-exit" })
    h.contains(h.advice(checkhealth(), "last message"), "the LSP log")
  end)

  it("without a server, says how to get one", function()
    local saved_server, saved_path = lsp.monorepo_server, vim.env.PATH
    lsp.monorepo_server = function()
      return "/nonexistent/infill-lsp.js"
    end
    vim.env.PATH = vim.fn.tempname()
    h.capture_notify()
    require("infill").setup({ filetypes = { ["*"] = false } })
    local ok, text = pcall(checkhealth)
    lsp.monorepo_server, vim.env.PATH = saved_server, saved_path
    h.ok(ok, text)
    h.contains(text, "infill-lsp was not found")
    h.contains(text, "npm install --global @infill/lsp-server")
  end)

  it("names where the server comes from", function()
    local script = vim.fn.tempname() .. ".js"
    vim.fn.writefile({ 'if (process.argv.includes("--version")) console.log("7.7.7")' }, script)
    local saved_server = lsp.monorepo_server
    lsp.monorepo_server = function()
      return script
    end
    require("infill").setup({ filetypes = { ["*"] = false } })
    local text = checkhealth()
    lsp.monorepo_server = saved_server
    h.contains(text, "infill-lsp 7.7.7")
    h.contains(text, "from the build in the plugin's repository")
  end)

  it("a server that fails --version is an error", function()
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false } })
    local text = checkhealth()
    h.contains(text, "`/bin/false --version` failed")
    h.contains(h.advice(text, "--version` failed"), "check that the command runs in a shell")
  end)

  it("says whether next edits are on", function()
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false } })
    h.contains(checkhealth(), "next edits: off (settings.nextEdit.enabled = true turns them on")
    require("infill").setup({
      cmd = { "/bin/false" },
      filetypes = { ["*"] = false },
      settings = { nextEdit = { enabled = true } },
    })
    h.contains(checkhealth(), "next edits: on (settings.nextEdit.enabled), asked after 150 ms of quiet")
    require("infill.next_edit").state.unsupported[42] = true
    local text = checkhealth()
    require("infill.next_edit").state.unsupported[42] = nil
    h.contains(text, "client 42: the server does not answer textDocument/copilotInlineEdit")
    h.contains(h.advice(text, "client 42: the server does not answer"), "update infill-lsp")
  end)

  it("names the keymaps that wrap a mapping the user had", function()
    vim.keymap.set("i", "<M-l>", "<Cmd>echo<CR>", { desc = "my accept" })
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false } })
    h.contains(checkhealth(), "keymap <M-l> wraps your earlier mapping (my accept)")
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false }, keymaps = false })
    vim.keymap.del("i", "<M-l>")
  end)

  local ollama = { name = "ollama", label = "Ollama", baseUrl = "http://127.0.0.1:11434", ["local"] = true }
  local deepseek = {
    name = "deepseek",
    label = "DeepSeek",
    baseUrl = "https://api.deepseek.com/beta",
    model = "deepseek-v4-flash",
    apiKeyEnv = "DEEPSEEK_API_KEY",
    ["local"] = false,
  }
  local ds =
    { provider = "deepseek", entry = deepseek, model = "deepseek-v4-flash", key_env = "DEEPSEEK_API_KEY" }

  -- kind, context, what the hint says
  local cases = {
    { "no-key", ds, "export DEEPSEEK_API_KEY in the shell that starts Neovim" },
    { "no-key", { provider = "codestral", key_env = "CODESTRAL_API_KEY" }, "export CODESTRAL_API_KEY" },
    { "auth", ds, "the provider rejected the key: check DEEPSEEK_API_KEY" },
    { "auth", { provider = "openai-compatible", key_env = "MY_KEY" }, "check MY_KEY" },
    { "balance", ds, "platform.deepseek.com" },
    { "balance", { provider = "codestral" }, "settle the payment" },
    { "rate-limit", ds, "settings.maxConcurrent" },
    {
      "model-not-found",
      { provider = "ollama", entry = ollama, model = "mistral" },
      "`ollama pull mistral`",
    },
    { "model-not-found", ds, "its default is deepseek-v4-flash" },
    { "fim-unsupported", { provider = "llamacpp" }, "start llama-server with a model" },
    { "fim-unsupported", { provider = "ollama", entry = ollama }, "qwen2.5-coder" },
    { "no-endpoint", ds, "its default is https://api.deepseek.com/beta" },
    { "bad-request", ds, "maybe that one only" },
    { "invalid-request", ds, "settings.allowInsecureHttp" },
    { "unavailable", { provider = "ollama", entry = ollama }, "start the provider's server (`ollama serve`" },
    { "unavailable", ds, "raise settings.timeoutMs" },
    { "server-not-found", ds, "npm install --global @infill/lsp-server" },
    { "server-not-found", ds, "npx --yes pnpm@10 install" },
    { "server-version", ds, "set `cmd` in setup()" },
    { "server-outdated", ds, "update infill-lsp" },
    { "server-exit", ds, "the LSP log" },
    { "options", ds, "fix the named option in setup()" },
    { "action-error", ds, ":Infill log has the error" },
    { "probe-timeout", ds, "settings.timeoutMs" },
    { "probe-failed", ds, "see :Infill log" },
    { nil, ds, "see :Infill log" },
    { "a kind from a newer server", ds, "see :Infill log" },
  }
  for _, case in ipairs(cases) do
    local kind, ctx, expected = case[1], case[2], case[3]
    it(("hint for %s (%s)"):format(tostring(kind), ctx.provider), function()
      h.contains(health.hint(kind, ctx), expected)
    end)
  end

  it("has a hint for every kind of failure the server names", function()
    -- The server's kinds are the keys of its policy table (a Record over every kind, so TypeScript keeps it whole).
    local source = lsp.plugin_root() .. "/../lsp-server/src/upstream/failure-policy.ts"
    local text = table.concat(vim.fn.readfile(source), "\n")
    local table_text = h.ok(text:match("FAILURE_POLICIES[^=]*= {(.-)\n};"), "FAILURE_POLICIES in " .. source)
    local kinds = {}
    for line in table_text:gmatch("[^\n]+") do
      local kind = line:match('^  "?([%a-]+)"?:')
      if kind then
        table.insert(kinds, kind)
      end
    end
    h.ok(#kinds >= 10, "kinds read: " .. vim.inspect(kinds))
    for _, kind in ipairs(kinds) do
      h.ok(health.HINTS[kind], "a hint for " .. kind)
    end
  end)
end)
