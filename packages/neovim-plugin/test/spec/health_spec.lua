local h = require("helpers")
local health = require("infill.health")
local lsp = require("infill.lsp")

local function checkhealth()
  vim.cmd("checkhealth infill")
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  vim.cmd("bwipeout!")
  return text
end

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
    h.contains(health.hint("infill: infill-lsp is not on PATH and x does not exist"), "pnpm build")
    h.contains(health.hint("infill: request timed out"), "timeoutMs")
    h.contains(health.hint("infill: ignoring workspace settings: foo"), "setting")
    h.eq("see :Infill log", health.hint("something else"))
  end)
end)
