-- End to end, repository context. neovim.test.ts makes the project ($INFILL_TEST_PROJECT: a package.json and no
-- version control, src/cart.ts importing formatPrice from lib/pricing.ts) and, after this spec, checks that the
-- request @infill/sim got when `(` was typed after `formatPrice` carried the declaration from lib/pricing.ts, a file
-- Neovim never opened.
local h = require("helpers")

local infill = require("infill")
local lsp = require("infill.lsp")

infill.setup({ settings = { debounceMs = 0 } })

local project = assert(vim.env.INFILL_TEST_PROJECT, "INFILL_TEST_PROJECT is not set")
local line = assert(tonumber(vim.env.INFILL_TEST_LINE), "INFILL_TEST_LINE is not set")

describe("repository context", function()
  it("the project is the server's workspace folder; typing `(` after an imported function asks", function()
    vim.cmd.edit(vim.fn.fnameescape(project .. "/src/cart.ts"))
    local client = h.wait_for(function()
      local c = lsp.get_client(0)
      return c and c.initialized and c
    end, 10000, "the infill client to attach and initialize")
    -- Neovim sends these as `workspaceFolders` (and the first as `rootUri`) in `initialize`.
    h.eq({ { name = project, uri = vim.uri_from_fname(project) } }, client.workspace_folders)
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.type("(")
    h.wait_for(function()
      return h.ghost_text()
    end, 5000, "a suggestion after `(`")
  end)
end)
