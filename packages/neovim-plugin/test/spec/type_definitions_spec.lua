-- infill/typeDefinitions: the resolver with fake peers, the capability, and the handler with fake language servers
-- running inside Neovim (`cmd` as a function), as the server's request reaches it.
local h = require("helpers")
local config = require("infill.config")
local lsp = require("infill.lsp")
local td = require("infill.type_definitions")

local CLIENT_TS = "file:///w/client.ts"

---@param line integer
---@param character integer
local function loc(line, character)
  return {
    uri = CLIENT_TS,
    range = {
      start = { line = line, character = character },
      ["end"] = { line = line, character = character + 4 },
    },
  }
end

--- A fake peer: `answers[method]` is the result (a function of the params, or a value); `nil` for a method it lacks;
--- `"never"` never answers. Records what it was asked and what was cancelled.
---@param name string
---@param answers table<string, any>
---@param encoding? string
local function peer(name, answers, encoding)
  local p = { asked = {}, cancelled = 0 }
  p.peer = {
    name = name,
    encoding = encoding or "utf-16",
    supports = function(method)
      return answers[method] ~= nil
    end,
    request = function(method, params, callback)
      table.insert(p.asked, { method = method, params = params })
      local answer = answers[method]
      if answer ~= "never" then
        callback(nil, type(answer) == "function" and answer(params) or answer)
      end
      return function()
        p.cancelled = p.cancelled + 1
      end
    end,
  }
  return p
end

--- A scratch buffer holding `lines`.
---@param lines string[]
local function buffer(lines)
  local bufnr = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(bufnr, vim.fn.tempname() .. "/app.ts")
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  return bufnr
end

--- `td.resolve` with the answers captured.
local function resolve(bufnr, positions, encoding, peers, timeout_ms)
  local out
  td.resolve(bufnr, positions, encoding, peers, function(answers, by)
    out = { answers = answers, by = by }
  end, timeout_ms)
  return function()
    return out
  end
end

describe("type definitions", function()
  before_each(function()
    config.setup()
  end)

  describe("resolve", function()
    it("asks every peer for the type definition; the first location wins", function()
      local bufnr = buffer({ "", "await mail." })
      local none =
        peer("pyright", { ["textDocument/typeDefinition"] = vim.NIL, ["textDocument/definition"] = {} })
      local ts = peer("tsserver", { ["textDocument/typeDefinition"] = { loc(5, 13) } })
      local got = resolve(bufnr, { { line = 1, character = 6 } }, "utf-16", { none.peer, ts.peer })
      h.eq({ answers = { loc(5, 13) }, by = { "tsserver textDocument/typeDefinition" } }, got())
      h.eq("textDocument/typeDefinition", ts.asked[1].method)
      h.eq(
        { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 6 } },
        ts.asked[1].params
      )
      -- The one that found no type tried the name's definition.
      h.eq(
        { "textDocument/typeDefinition", "textDocument/definition" },
        vim.tbl_map(function(a)
          return a.method
        end, none.asked)
      )
    end)

    it("asks for the definition a peer without type definitions, and reads a LocationLink", function()
      local bufnr = buffer({ "x." })
      local link = {
        targetUri = CLIENT_TS,
        targetRange = { start = { line = 2, character = 0 }, ["end"] = { line = 9, character = 1 } },
        targetSelectionRange = { start = { line = 3, character = 6 }, ["end"] = { line = 3, character = 9 } },
      }
      local p = peer("gopls", { ["textDocument/definition"] = { link } })
      local got = resolve(bufnr, { { line = 0, character = 0 } }, "utf-16", { p.peer })
      h.eq({
        uri = CLIENT_TS,
        range = { start = { line = 3, character = 6 }, ["end"] = { line = 3, character = 9 } },
      }, got().answers[1])
    end)

    it("answers null for each position nobody locates, at once", function()
      local bufnr = buffer({ "a.", "b." })
      local p = peer("tsserver", { ["textDocument/typeDefinition"] = {} })
      local got = resolve(
        bufnr,
        { { line = 0, character = 0 }, { line = 1, character = 0 } },
        "utf-16",
        { p.peer }
      )
      h.eq({ vim.NIL, vim.NIL }, got().answers)
      h.eq({ vim.NIL }, resolve(bufnr, { { line = 0, character = 0 } }, "utf-16", {})().answers)
    end)

    it("turns positions into each peer's encoding and the answer back into infill's", function()
      -- "é" is 2 bytes and 1 UTF-16 unit: `mail` starts at byte 9, UTF-16 character 8.
      local bufnr = buffer({ "const é; mail." })
      local target = vim.fn.tempname() .. ".ts"
      vim.fn.writefile({ "", "class Ü { x }" }, target)
      local uri = vim.uri_from_fname(target)
      local p = peer("tsserver", {
        ["textDocument/typeDefinition"] = {
          -- `x` is UTF-16 character 10 on that line, byte 11.
          {
            uri = uri,
            range = { start = { line = 1, character = 10 }, ["end"] = { line = 1, character = 11 } },
          },
        },
      })
      local got = resolve(bufnr, { { line = 0, character = 9 } }, "utf-8", { p.peer })
      h.eq({ line = 0, character = 8 }, p.asked[1].params.position)
      h.eq(
        { start = { line = 1, character = 11 }, ["end"] = { line = 1, character = 12 } },
        got().answers[1].range
      )
    end)

    it("answers null for what is unanswered when its time is up, and cancels it", function()
      local bufnr = buffer({ "mail." })
      local slow = peer("slow", { ["textDocument/typeDefinition"] = "never" })
      local got = resolve(bufnr, { { line = 0, character = 0 } }, "utf-16", { slow.peer }, 10)
      h.eq(nil, got())
      h.wait_for(got, 2000, "the answer after the timeout")
      h.eq({ vim.NIL }, got().answers)
      h.eq(1, slow.cancelled)
    end)

    it("does not wait for a slow peer once another located the type, and cancels it", function()
      local bufnr = buffer({ "mail." })
      local slow = peer("slow", { ["textDocument/typeDefinition"] = "never" })
      local fast = peer("fast", { ["textDocument/typeDefinition"] = loc(1, 0) })
      local got = resolve(bufnr, { { line = 0, character = 0 } }, "utf-16", { slow.peer, fast.peer })
      h.eq({ loc(1, 0) }, got().answers)
      h.eq(1, slow.cancelled)
    end)
  end)

  describe("capability", function()
    it("is advertised by default, with the plugin's ghost text or the built-in one", function()
      h.eq(true, lsp.capabilities().experimental.infill.typeDefinitions)
      config.setup({ use_native = vim.lsp.inline_completion ~= nil })
      h.eq(true, lsp.capabilities().experimental.infill.typeDefinitions)
    end)

    it("is not with type_definitions = false", function()
      config.setup({ type_definitions = false })
      h.eq(nil, lsp.capabilities().experimental.infill.typeDefinitions)
    end)
  end)

  describe("handler", function()
    local started = {}
    after_each(function()
      for _, id in ipairs(started) do
        vim.lsp.stop_client(id, true)
      end
      started = {}
    end)

    --- A language server inside Neovim: answers `initialize` with `capabilities`, other requests with `answer`.
    local function fake_server(bufnr, name, capabilities, answer)
      local id = vim.lsp.start({
        name = name,
        cmd = function(dispatchers)
          local closing, n = false, 0
          return {
            request = function(method, params, callback)
              n = n + 1
              local result = method == "initialize" and { capabilities = capabilities }
                or method == "shutdown" and vim.NIL
                or answer(method, params)
              vim.schedule(function()
                callback(nil, result)
              end)
              return true, n
            end,
            notify = function(method)
              if method == "exit" and not closing then
                closing = true
                dispatchers.on_exit(0, 15)
              end
              return true
            end,
            is_closing = function()
              return closing
            end,
            terminate = function()
              closing = true
            end,
          }
        end,
      }, { bufnr = bufnr })
      table.insert(started, id)
      return assert(id)
    end

    it("asks the buffer's other servers, never infill, and answers one location per position", function()
      local bufnr = buffer({ "const mail = connect();", "await mail." })
      vim.api.nvim_set_current_buf(bufnr)
      local infill_asked = 0
      local infill_id = fake_server(bufnr, "infill", { positionEncoding = "utf-8" }, function()
        infill_asked = infill_asked + 1
        return { loc(99, 0) }
      end)
      local ts_asked = {}
      fake_server(
        bufnr,
        "typescript-language-server",
        { typeDefinitionProvider = true },
        function(method, params)
          table.insert(ts_asked, { method = method, position = params.position })
          return { loc(5, 13) }
        end
      )
      h.wait_for(function()
        return #vim.tbl_filter(function(c)
          return c.initialized
        end, vim.lsp.get_clients({ bufnr = bufnr })) == 2
      end, 5000, "both servers to start")
      local result
      coroutine.wrap(function()
        result = td.handle(nil, {
          textDocument = { uri = vim.uri_from_bufnr(bufnr) },
          positions = { { line = 1, character = 6 } },
        }, { client_id = infill_id, method = td.method })
      end)()
      h.wait_for(function()
        return result
      end, 5000, "the handler's answer")
      h.eq({ loc(5, 13) }, result)
      h.eq({ { method = "textDocument/typeDefinition", position = { line = 1, character = 6 } } }, ts_asked)
      h.eq(0, infill_asked)
      h.eq({ "typescript-language-server textDocument/typeDefinition" }, td.state.last.by)
    end)

    it("answers null for a buffer that is not loaded", function()
      local params =
        { textDocument = { uri = "file:///nowhere/x.ts" }, positions = { { line = 0, character = 0 } } }
      local result
      coroutine.wrap(function()
        result = td.handle(nil, params, { client_id = 1, method = td.method })
      end)()
      h.eq({ vim.NIL }, result)
      h.eq({ vim.NIL }, td.handle(nil, params, { client_id = 1, method = td.method }))
    end)
  end)
end)
