---@brief Answers the server's `infill/typeDefinitions`: where the types of values are declared, asked of the other
--- language servers attached to the buffer (tsserver, gopls, rust-analyzer…), never of infill itself.
---
--- The server asks with `{ textDocument = { uri }, positions }` and takes one answer per position: a `Location` or
--- null. Each position goes to every other client of the buffer at once as `textDocument/typeDefinition`, or
--- `textDocument/definition` for a client without it or that finds no type there; the first location wins (the
--- others are cancelled). Positions come and go in infill's position encoding; each client gets its own.

local position = require("infill.position")

local M = {}

M.method = "infill/typeDefinitions"

--- How long the plugin waits for the other servers before answering null for what is still unanswered, in ms. The
--- server's own budget is much shorter (it goes without, and keeps a later answer for the next request at that
--- place), so this only bounds how long the question stays open: long enough for a language server's first answer
--- after it loaded the project (tsserver took 2.7 s on a busy 2-core machine, then 30-180 ms), which an answer of
--- null would lose; the server gives up at 5 s.
M.timeout_ms = 3000

--- What the plugin last did for the request, for `:Infill log` and the tests.
---@class infill.TypeDefinitionsState
---@field asked integer Requests answered.
---@field last? { positions: integer, found: integer, by: string[], ms: number } The last one: what each position's answer came from (`<client name> <method>`, or `-`).
M.state = { asked = 0 }

--- Another language server of the buffer, as the resolver sees it (fake ones in the specs).
---@class infill.TypePeer
---@field name string
---@field encoding string Its position encoding.
---@field supports fun(method: string): boolean
---@field request fun(method: string, params: table, callback: fun(err: any, result: any)): fun()? Sends; returns a cancel function, or nil when not sent.

--- The loaded buffer of `uri`, if any (compared by URI: `bufnr()` would read the file name as a pattern, and
--- `vim.uri_to_bufnr()` would create a buffer).
---@param uri string
---@return integer?
local function loaded_buffer(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

---@param uri string
---@param row integer 0-based
---@return string?
local function line_of(uri, row)
  local bufnr = loaded_buffer(uri)
  if bufnr then
    return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
  end
  local ok, fname = pcall(vim.uri_to_fname, uri)
  if not ok then
    return nil
  end
  local read_ok, lines = pcall(vim.fn.readfile, fname, "", row + 1)
  return read_ok and lines[row + 1] or nil
end

--- A position on `uri` from encoding `from` to `to` (the line's text read only when they differ; a line that cannot
--- be read keeps its character as it is: the server reads only the line).
---@param uri string
---@param pos lsp.Position
---@param from string
---@param to string
---@param text? string The line, when known.
---@return lsp.Position
local function convert(uri, pos, from, to, text)
  if from == to then
    return { line = pos.line, character = pos.character }
  end
  text = text or line_of(uri, pos.line)
  if not text then
    return { line = pos.line, character = pos.character }
  end
  return {
    line = pos.line,
    character = position.to_character(text, position.to_byte(text, pos.character, from), to),
  }
end

--- The first location of an answer (`Location`, `Location[]`, `LocationLink[]`), as a `Location` in `encoding`.
---@param result any
---@param from string The answering client's encoding.
---@param to string infill's.
---@return lsp.Location?
local function first_location(result, from, to)
  if type(result) ~= "table" then
    return nil
  end
  local item = vim.islist(result) and result[1] or result
  if type(item) ~= "table" then
    return nil
  end
  local uri = item.targetUri or item.uri
  local range = item.targetSelectionRange or item.targetRange or item.range
  if type(uri) ~= "string" or type(range) ~= "table" or type(range.start) ~= "table" then
    return nil
  end
  return {
    uri = uri,
    range = {
      start = convert(uri, range.start, from, to),
      ["end"] = convert(uri, range["end"] or range.start, from, to),
    },
  }
end

--- Ask `peers` where the types at `positions` of the buffer are declared; `done` gets one answer per position
--- (a `Location` or `vim.NIL`) once each is answered, or after `timeout_ms`, whichever comes first; once.
---@param bufnr integer
---@param positions lsp.Position[] In `encoding`.
---@param encoding string infill's position encoding.
---@param peers infill.TypePeer[]
---@param done fun(answers: (lsp.Location|vim.NIL)[], by: string[])
---@param timeout_ms? integer Default `M.timeout_ms`.
function M.resolve(bufnr, positions, encoding, peers, done, timeout_ms)
  local uri = vim.uri_from_bufnr(bufnr)
  local answers, by, open, cancels = {}, {}, #positions, {}
  local finished = false
  local timer ---@type uv.uv_timer_t?
  local function finish()
    if finished then
      return
    end
    finished = true
    if timer then
      timer:stop()
      timer:close()
    end
    for _, cancel in pairs(cancels) do
      pcall(cancel)
    end
    for i = 1, #positions do
      answers[i] = answers[i] or vim.NIL
      by[i] = by[i] or "-"
    end
    done(answers, by)
  end
  for i, pos in ipairs(positions) do
    local text = vim.api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, false)[1] or ""
    -- Questions in flight for this position, and one for the loop below while it sends them: a peer answering at
    -- once does not settle the position before the others are asked.
    local waiting = 1
    local function settle(location, source)
      if answers[i] ~= nil or finished then
        return
      end
      if location then
        answers[i], by[i] = location, source
      elseif waiting > 0 then
        return
      else
        answers[i] = vim.NIL
      end
      open = open - 1
      if open == 0 then
        finish()
      end
    end
    ---@param peer infill.TypePeer
    ---@param method string
    local function ask(peer, method)
      local key = ("%d:%s:%s"):format(i, peer.name, method)
      local params =
        { textDocument = { uri = uri }, position = convert(uri, pos, encoding, peer.encoding, text) }
      waiting = waiting + 1
      local cancel = peer.request(method, params, function(err, result)
        cancels[key] = nil
        waiting = waiting - 1
        local location = not err and first_location(result, peer.encoding, encoding) or nil
        -- A server that finds no type here may still find the name's declaration.
        if
          not location
          and method == "textDocument/typeDefinition"
          and peer.supports("textDocument/definition")
        then
          return ask(peer, "textDocument/definition")
        end
        settle(location, peer.name .. " " .. method)
      end)
      if cancel then
        cancels[key] = cancel
      elseif waiting > 0 and answers[i] == nil then
        -- Not sent (the client stopped): nothing will answer it.
        waiting = waiting - 1
        settle(nil, nil)
      end
    end
    for _, peer in ipairs(peers) do
      if peer.supports("textDocument/typeDefinition") then
        ask(peer, "textDocument/typeDefinition")
      elseif peer.supports("textDocument/definition") then
        ask(peer, "textDocument/definition")
      end
    end
    waiting = waiting - 1
    settle(nil, nil)
  end
  if not finished then
    timer = assert(vim.uv.new_timer())
    timer:start(timeout_ms or M.timeout_ms, 0, vim.schedule_wrap(finish))
  end
end

--- The other language servers attached to `bufnr` (every client but infill's).
---@param bufnr integer
---@param self_id integer The infill client asking.
---@return infill.TypePeer[]
function M.peers(bufnr, self_id)
  local lsp = require("infill.lsp")
  local out = {}
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr })) do
    if client.id ~= self_id and client.name ~= lsp.name then
      table.insert(out, {
        name = client.name,
        encoding = client.offset_encoding or "utf-16",
        supports = function(method)
          return lsp.supports(client, method, bufnr)
        end,
        request = function(method, params, callback)
          local ok, id = lsp.request(client, method, params, function(err, result)
            callback(err, result)
          end, bufnr)
          return ok and id and function()
            lsp.cancel(client, id)
          end or nil
        end,
      })
    end
  end
  return out
end

--- The handler of the server's request (runs in the coroutine Neovim answers server requests from): a list of
--- one answer per position, `vim.NIL` where none was found. Never an error: a question that cannot be answered
--- is answered null.
---@param params { textDocument: { uri: string }, positions: lsp.Position[] }
---@param ctx lsp.HandlerContext
---@return (lsp.Location|vim.NIL)[]
function M.handle(_, params, ctx)
  local lsp = require("infill.lsp")
  local positions = type(params) == "table" and type(params.positions) == "table" and params.positions or {}
  local nulls = {}
  for i = 1, #positions do
    nulls[i] = vim.NIL
  end
  local uri = type(params) == "table" and type(params.textDocument) == "table" and params.textDocument.uri
  local co, main = coroutine.running()
  local bufnr = type(uri) == "string" and loaded_buffer(uri) or nil
  if not co or main or not bufnr or #positions == 0 then
    return nulls
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local encoding = client and client.offset_encoding or "utf-16"
  local started = vim.uv.hrtime()
  M.resolve(bufnr, positions, encoding, M.peers(bufnr, ctx.client_id), function(answers, by)
    vim.schedule(function()
      coroutine.resume(co, answers, by)
    end)
  end)
  local answers, by = coroutine.yield()
  local found = 0
  for _, answer in ipairs(answers) do
    found = found + (answer ~= vim.NIL and 1 or 0)
  end
  local ms = (vim.uv.hrtime() - started) / 1e6
  M.state.asked = M.state.asked + 1
  M.state.last = { positions = #positions, found = found, by = by, ms = ms }
  lsp.log("%s: %d of %d found (%s) in %.1f ms", M.method, found, #positions, table.concat(by, ", "), ms)
  return answers
end

return M
