-- End to end, types from the editor's language server: neovim.test.ts writes a TypeScript project
-- ($INFILL_TEST_PROJECT, test/type-definitions-project.ts: `connect()` in factory.ts returns a `MailClient` declared
-- in client.ts, which app.ts does not import), this spec opens app.ts with infill and typescript-language-server
-- (`$INFILL_TEST_TSLS`, over tsserver `$INFILL_TEST_TSSERVER`) both attached, types `.` after `await mail`, and checks
-- that the server's `infill/typeDefinitions` went to tsserver and came back with client.ts; neovim.test.ts then
-- checks that the request @infill/sim got carried `deliver(` and `close(`.
local h = require("helpers")

local infill = require("infill")
local lsp = require("infill.lsp")
local suggestion = require("infill.suggestion")
local td = require("infill.type_definitions")

local project = assert(vim.env.INFILL_TEST_PROJECT, "INFILL_TEST_PROJECT is not set")
local tsls = assert(vim.env.INFILL_TEST_TSLS, "INFILL_TEST_TSLS is not set")
local tsserver = assert(vim.env.INFILL_TEST_TSSERVER, "INFILL_TEST_TSSERVER is not set")

-- The request waits for tsserver a while (the default budget is 50 ms): this test checks the way through, not the
-- budget (the server's own tests do that), on a machine that may be busy.
infill.setup({ settings = { debounceMs = 0, logLevel = "debug", context = { typeDefinitionMs = 2000 } } })

describe("types from the editor's language server", function()
  it(
    "infill/typeDefinitions goes to typescript-language-server, and the request carries MailClient",
    function()
      vim.cmd.edit(vim.fn.fnameescape(project .. "/src/app.ts"))
      local bufnr = vim.api.nvim_get_current_buf()
      vim.lsp.start({
        name = "typescript-language-server",
        cmd = { vim.fn.exepath("node"), tsls, "--stdio" },
        root_dir = project,
        init_options = { tsserver = { path = tsserver } },
      }, { bufnr = bufnr })
      local clients = h.wait_for(function()
        local infill_client = lsp.get_client(bufnr)
        local ts = vim.lsp.get_clients({ bufnr = bufnr, name = "typescript-language-server" })[1]
        return infill_client
          and infill_client.initialized
          and ts
          and ts.initialized
          and { infill = infill_client, ts = ts }
      end, 15000, "infill and typescript-language-server to attach and initialize")
      h.eq(true, lsp.capabilities().experimental.infill.typeDefinitions)
      -- tsserver loads the project on its first requests (seconds here): wait for that, so that the one through infill
      -- is the warm one an editor sees while typing.
      local line = vim.fn.search("await mail$", "n")
      h.ok(line > 0, "the line `await mail`")
      for _ = 1, 2 do
        local warm = vim.lsp.buf_request_sync(bufnr, "textDocument/typeDefinition", {
          textDocument = { uri = vim.uri_from_bufnr(bufnr) },
          position = { line = line - 1, character = 8 },
        }, 30000)
        h.ok(
          warm and warm[clients.ts.id] and warm[clients.ts.id].result,
          "tsserver's answer to a first request"
        )
      end

      vim.api.nvim_win_set_cursor(0, { line, 0 })
      h.input("A", function()
        return vim.api.nvim_get_mode().mode == "i"
      end)
      local before = suggestion.state.seq
      h.type(".")
      h.wait_for(function()
        return suggestion.state.seq > before and not suggestion.busy()
      end, 10000, "the answer to the request after `mail.`")
      -- On failure, the plugin's log says what the server did (its debug lines) and what the plugin answered.
      local log = function()
        return "\n" .. table.concat(vim.list_slice(lsp.state.log, math.max(1, #lsp.state.log - 40)), "\n")
      end
      h.ok(td.state.last, "an infill/typeDefinitions request from the server" .. log())
      h.eq(1, td.state.last.positions)
      h.eq(1, td.state.last.found, "positions located" .. log())
      h.eq({ "typescript-language-server textDocument/typeDefinition" }, td.state.last.by)
      -- For neovim.test.ts: how long the way through Neovim to tsserver and back took.
      vim.fn.writefile(
        { vim.json.encode({ typeDefinitionsMs = td.state.last.ms }) },
        project .. "/figures.json"
      )
    end
  )
end)
