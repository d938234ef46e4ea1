-- The runner reports which Neovim ran; the vitest side checks it is the one it launched.
local h = require("helpers")

describe("neovim", function()
  it("runs headless with an isolated runtimepath", function()
    h.eq(1, vim.fn.has("nvim-0.10"))
    for _, dir in ipairs(vim.api.nvim_list_runtime_paths()) do
      h.ok(not vim.startswith(dir, "/etc/xdg"), "system config on the runtimepath: " .. dir)
      h.ok(not vim.startswith(dir, "/usr/share/nvim/site"), "system site dir on the runtimepath: " .. dir)
    end
  end)
end)
