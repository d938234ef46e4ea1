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

  it(
    "runs the server with --version and reports the key, the base URL and the last error with a hint",
    function()
      local dir = vim.fn.tempname()
      vim.fn.mkdir(dir, "p")
      local fake = dir .. "/fake-lsp"
      vim.fn.writefile({ "#!/bin/sh", 'if [ "$1" = "--version" ]; then echo 9.9.9; else exit 3; fi' }, fake)
      vim.fn.setfperm(fake, "rwxr-xr-x")
      vim.env.DEEPSEEK_API_KEY = nil
      vim.env.INFILL_BASE_URL = "http://127.0.0.1:9/beta"
      require("infill").setup({ cmd = { fake, "--stdio" }, filetypes = { ["*"] = false } })
      lsp.report(1, "infill: the API rejected the key (401 Unauthorized)")
      local text = checkhealth()
      h.contains(text, "infill-lsp 9.9.9")
      h.contains(text, "DEEPSEEK_API_KEY is not set")
      h.contains(text, "http://127.0.0.1:9/beta")
      h.contains(text, "the API rejected the key (401 Unauthorized)")
      h.contains(text, "check DEEPSEEK_API_KEY")
    end
  )

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
    h.contains(checkhealth(), "`/bin/false --version` failed")
  end)

  it("names the keymaps that wrap a mapping the user had", function()
    vim.keymap.set("i", "<M-l>", "<Cmd>echo<CR>", { desc = "my accept" })
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false } })
    h.contains(checkhealth(), "keymap <M-l> wraps your earlier mapping (my accept)")
    require("infill").setup({ cmd = { "/bin/false" }, filetypes = { ["*"] = false }, keymaps = false })
    vim.keymap.del("i", "<M-l>")
  end)

  it("gives a hint per kind of message", function()
    h.contains(health.hint("infill: DEEPSEEK_API_KEY is not set"), "export DEEPSEEK_API_KEY")
    h.contains(health.hint("infill: the API rejected the key (401)"), "rejected the key")
    local missing =
      health.hint("infill: infill-lsp was not found (it is not on PATH, and x has not been built)")
    h.contains(missing, "npm install --global @infill/lsp-server")
    h.contains(missing, "npx --yes pnpm@10 install")
    h.contains(health.hint("infill: request timed out"), "timeoutMs")
    h.contains(health.hint("infill: ignoring workspace settings: foo"), "setting")
    h.eq("see :Infill log", health.hint("something else"))
  end)
end)
