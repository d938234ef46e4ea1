-- End to end, repository context, one project per run. neovim.test.ts writes the project ($INFILL_TEST_PROJECT: its
-- project file and no version control; test/context-projects.ts has one per language family), this spec opens
-- $INFILL_TEST_OPEN in it, types $INFILL_TEST_TYPED at the end of line $INFILL_TEST_LINE (after a name declared in a
-- file Neovim never opens), and neovim.test.ts then checks that the request @infill/sim got carried that declaration.
local h = require("helpers")

local infill = require("infill")
local lsp = require("infill.lsp")
local suggestion = require("infill.suggestion")

infill.setup({ settings = { debounceMs = 0 } })

local project = assert(vim.env.INFILL_TEST_PROJECT, "INFILL_TEST_PROJECT is not set")
local open = assert(vim.env.INFILL_TEST_OPEN, "INFILL_TEST_OPEN is not set")
local line = assert(tonumber(vim.env.INFILL_TEST_LINE), "INFILL_TEST_LINE is not set")
local typed = assert(vim.env.INFILL_TEST_TYPED, "INFILL_TEST_TYPED is not set")
local filetype = assert(vim.env.INFILL_TEST_FILETYPE, "INFILL_TEST_FILETYPE is not set")

describe("repository context", function()
  it(("the project is the server's workspace folder; typing %q in %s asks"):format(typed, open), function()
    vim.cmd.edit(vim.fn.fnameescape(project .. "/" .. open))
    -- Neovim sends the filetype as the document's languageId, which tells the server the language family.
    h.eq(filetype, vim.bo.filetype, "the filetype Neovim detected")
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
    local before = suggestion.state.seq
    h.type(typed)
    -- The answer, whether the sim's text makes ghost text or not (an empty answer is no suggestion): what this test
    -- checks is the request.
    h.wait_for(function()
      return suggestion.state.seq > before and not suggestion.busy()
    end, nil, ("the answer to the request after %q"):format(typed))
  end)
end)
