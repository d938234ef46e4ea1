---@brief Usage and acceptance: telling the server what the user took of a suggestion (`infill.accepted`) and which
--- suggestions it drew (`infill.shown`), and its usage figures (`infill.status`) as the short table of
--- `:Infill status`.

local lsp = require("infill.lsp")

local M = {}

--- The command each of the server's items carries, run when the user takes (part of) the item.
M.ACCEPTED = "infill.accepted"
--- The command that answers the server's usage figures.
M.STATUS = "infill.status"
--- The command that tells the server a suggestion was drawn (the plugin declares `experimental.infill.reportsShown`).
M.SHOWN = "infill.shown"

--- Ids already reported drawn, to report each once (the latest ones: a ring of `SHOWN_REMEMBERED`).
local SHOWN_REMEMBERED = 200
local shown_ids, shown_order = {}, {}

---@class infill.Accepted
---@field id string The suggestion's id.
---@field chars integer How far into the suggestion the whole item reaches, in characters.

--- The argument of an item's `infill.accepted` command, or nil when it has none.
---@param command any The item's `command`.
---@return infill.Accepted?
function M.accepted_argument(command)
  if type(command) ~= "table" or command.command ~= M.ACCEPTED or type(command.arguments) ~= "table" then
    return nil
  end
  local arg = command.arguments[1]
  if type(arg) ~= "table" or type(arg.id) ~= "string" or type(arg.chars) ~= "number" then
    return nil
  end
  return arg
end

--- Tell the server the user took an item up to where `left` (what is still not inserted of it) begins: the whole
--- item when `left` is empty, else a word or a line of it. Characters are counted as the server does, in code
--- points (|strchars()|).
---@param client_id integer
---@param command any The item's `command`.
---@param left string
function M.report(client_id, command, left)
  local arg = M.accepted_argument(command)
  local client = arg and vim.lsp.get_client_by_id(client_id)
  if not arg or not client then
    return
  end
  local params = {
    command = M.ACCEPTED,
    arguments = { { id = arg.id, chars = math.max(0, arg.chars - vim.fn.strchars(left)) } },
  }
  lsp.request(client, "workspace/executeCommand", params, function(err)
    if err then
      lsp.log("infill.accepted failed: %s", err.message or vim.inspect(err))
    end
  end, vim.api.nvim_get_current_buf())
end

--- Tell the server the suggestion of an item was drawn as ghost text, once per suggestion (type-through redraws the
--- same one). Items without an `infill.accepted` command (partial results) have no id and are not reported.
---@param client_id integer
---@param command any The item's `command`.
function M.report_shown(client_id, command)
  local arg = M.accepted_argument(command)
  local client = arg and vim.lsp.get_client_by_id(client_id)
  if not arg or not client or shown_ids[arg.id] then
    return
  end
  shown_ids[arg.id] = true
  table.insert(shown_order, arg.id)
  if #shown_order > SHOWN_REMEMBERED then
    shown_ids[table.remove(shown_order, 1)] = nil
  end
  lsp.request(
    client,
    "workspace/executeCommand",
    { command = M.SHOWN, arguments = { { id = arg.id } } },
    function(err)
      if err then
        lsp.log("infill.shown failed: %s", err.message or vim.inspect(err))
      end
    end,
    vim.api.nvim_get_current_buf()
  )
end

--- `n` with thousands separators: 12,345.
---@param n number
---@return string
function M.format_count(n)
  local s = tostring(math.floor(n + 0.5))
  local sign, digits = s:match("^(-?)(%d+)$")
  return sign .. digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
end

--- An estimated cost in US dollars, with the same digits as `infill usage` and the server's message: `$0`, six
--- decimals below a cent, four below a dollar, two from a dollar on.
---@param usd number
---@return string
function M.format_cost(usd)
  if usd == 0 then
    return "$0"
  end
  local decimals = usd < 0.01 and 6 or usd < 1 and 4 or 2
  return ("$%." .. decimals .. "f"):format(usd)
end

--- A share 0..1 as a whole percentage, or `–` when there is none.
---@param ratio number|nil
---@return string
function M.format_percent(ratio)
  if type(ratio) ~= "number" then
    return "–"
  end
  return ("%d %%"):format(math.floor(ratio * 100 + 0.5))
end

--- Rows of cells as a table: the columns right-aligned, two spaces apart, indented by two.
---@param rows string[][]
---@return string[]
local function table_lines(rows)
  local widths = {}
  for _, row in ipairs(rows) do
    for i, cell in ipairs(row) do
      widths[i] = math.max(widths[i] or 0, vim.fn.strdisplaywidth(cell))
    end
  end
  local lines = {}
  for _, row in ipairs(rows) do
    local cells = {}
    for i, cell in ipairs(row) do
      cells[i] = (" "):rep(widths[i] - vim.fn.strdisplaywidth(cell)) .. cell
    end
    table.insert(lines, "  " .. table.concat(cells, "  "))
  end
  return lines
end

--- A retention horizon as `infill usage` prints it: `30 s`, `2 min`, `0.5 s`, `1 h`.
---@param seconds number
---@return string
function M.format_horizon(seconds)
  local function number(n)
    return n == math.floor(n) and ("%d"):format(n) or tostring(n)
  end
  if seconds < 60 or seconds % 60 ~= 0 then
    return number(seconds) .. " s"
  elseif seconds < 3600 or seconds % 3600 ~= 0 then
    return number(seconds / 60) .. " min"
  end
  return number(seconds / 3600) .. " h"
end

--- A figure per dollar or per 1k tokens: with separators, or `decimals` below 1000, or `–` when there is none.
---@param value number|nil
---@param decimals? integer
---@return string
local function per_unit(value, decimals)
  if type(value) ~= "number" then
    return "–"
  end
  if decimals and value < 1000 then
    return ("%." .. decimals .. "f"):format(value)
  end
  return M.format_count(value)
end

--- The context arms of `infill.status`, in words.
local ARMS = { on = "with context", holdout = "held out", off = "context off" }

--- One line of the figures by language or context arm: each group's requests, suggestions taken of those shown and
--- characters taken.
---@param title string
---@param groups table[]?
---@param key string
---@param names? table<string, string>
---@return string?
local function split_line(title, groups, key, names)
  if type(groups) ~= "table" or #groups == 0 then
    return nil
  end
  local parts = {}
  for _, group in ipairs(groups) do
    local f = group.figures
    table.insert(
      parts,
      ("%s %s requests, %d of %d taken, %s chars"):format(
        (names and names[group[key]]) or group[key],
        M.format_count(f.requests),
        f.accepted + f.acceptedPartly,
        f.shown,
        M.format_count(f.acceptedChars)
      )
    )
  end
  return ("  %s: %s"):format(title, table.concat(parts, "; "))
end

--- What is kept of the characters taken at each horizon, and what taken and kept come to per dollar and per 1k
--- generated tokens (kept at the longest horizon).
---@param t table The figures (`total`).
---@return string[]
local function kept_lines(t)
  local retained = type(t.retained) == "table" and t.retained or {}
  if #retained == 0 then
    return {}
  end
  local horizons = {}
  for _, r in ipairs(retained) do
    table.insert(
      horizons,
      r.checkedChars > 0
          and ("%s %s (%s of %s chars)"):format(
            M.format_horizon(r.seconds),
            M.format_percent(r.rate),
            M.format_count(r.retainedChars),
            M.format_count(r.checkedChars)
          )
        or (M.format_horizon(r.seconds) .. " –")
    )
  end
  local last = retained[#retained]
  return {
    "  kept where it went: " .. table.concat(horizons, ", "),
    ("  per dollar: %s chars taken, %s kept at %s; per 1k output tokens: %s taken, %s kept"):format(
      per_unit(t.acceptedCharsPerDollar),
      per_unit(last.perDollar),
      M.format_horizon(last.seconds),
      per_unit(t.acceptedCharsPer1kOutputTokens, 1),
      per_unit(last.per1kOutputTokens, 1)
    ),
  }
end

---@param latency { p50: number|vim.NIL, p90: number|vim.NIL }
---@return string
local function percentiles(latency)
  if type(latency.p50) ~= "number" then
    return "–"
  end
  return ("%d/%d ms"):format(math.floor(latency.p50 + 0.5), math.floor(latency.p90 + 0.5))
end

--- Next edits' figures (`nextEdits` of `infill.status`) as lines, none until the server asked for any or showed any:
--- requests, the estimated cost, edits taken of those shown, dismissed, characters applied, and what is still there of
--- them at the longest horizon checked.
---@param n table?
---@return string[]
local function next_edit_lines(n)
  if type(n) ~= "table" or ((n.requests or 0) == 0 and (n.shown or 0) == 0) then
    return {}
  end
  local line = ("  next edits: %s request%s, est. %s, taken %s of %s (%s), %s dismissed"):format(
    M.format_count(n.requests),
    n.requests == 1 and "" or "s",
    M.format_cost(n.cost),
    M.format_count(n.accepted),
    M.format_count(n.shown),
    M.format_percent(n.acceptanceRate),
    M.format_count(n.dismissed or 0)
  )
  local kept
  for _, r in ipairs(type(n.retained) == "table" and n.retained or {}) do
    if r.checkedChars > 0 then
      kept = r
    end
  end
  if kept then
    line = line
      .. ("; %s chars applied, %s kept at %s"):format(
        M.format_count(kept.checkedChars),
        M.format_percent(kept.rate),
        M.format_horizon(kept.seconds)
      )
  end
  return { line }
end

--- The figures of `infill.status` as a short table: the columns of `infill usage`, then the latencies, what is kept
--- of what was taken and what it comes to per dollar, the figures by language and by context arm, and the log.
---@param status table What `infill.status` answered.
---@return string[]
function M.status_lines(status)
  local t = status.total
  local lines = {
    ("usage of this server since %s UTC, %s (costs are estimates at list prices):"):format(
      tostring(status.server.startedAt):sub(12, 16),
      status.model
    ),
  }
  vim.list_extend(
    lines,
    table_lines({
      { "requests", "prompt tokens", "cached", "output tokens", "est. cost", "shown", "taken", "rate" },
      {
        M.format_count(t.requests),
        M.format_count(t.cacheHitTokens + t.cacheMissTokens),
        M.format_percent(t.cacheHitRatio),
        M.format_count(t.completionTokens),
        M.format_cost(t.cost) .. (t.unpricedTokens > 0 and "*" or ""),
        M.format_count(t.shown),
        M.format_count(t.accepted + t.acceptedPartly),
        M.format_percent(t.acceptanceRate),
      },
    })
  )
  table.insert(
    lines,
    ("  taken: %d whole, %d in part, %s characters; latency p50/p90: %s to a new suggestion, %s upstream"):format(
      t.accepted,
      t.acceptedPartly,
      M.format_count(t.acceptedChars),
      percentiles(t.latency.endToEnd),
      percentiles(t.latency.upstream)
    )
  )
  vim.list_extend(lines, kept_lines(t))
  vim.list_extend(lines, next_edit_lines(status.nextEdits))
  local by_language = split_line("by language", status.languages, "language")
  local by_context = split_line("by context", status.contexts, "context", ARMS)
  if by_language then
    table.insert(lines, by_language)
  end
  if by_context then
    table.insert(lines, by_context)
  end
  if t.unpricedTokens > 0 then
    table.insert(
      lines,
      ("  * %s tokens of models without a price are not in the cost"):format(M.format_count(t.unpricedTokens))
    )
  end
  if status.log.enabled and type(status.log.file) == "string" then
    table.insert(lines, ("  days' totals: %s (`infill usage` prints them)"):format(status.log.file))
  end
  if type(status.log.error) == "string" then
    table.insert(lines, "  " .. status.log.error)
  end
  return lines
end

--- Ask `client` for its figures (synchronously, for `:Infill status`).
---@param client vim.lsp.Client
---@param timeout_ms? integer Default 2000.
---@return table? status, string? error
function M.fetch(client, timeout_ms)
  local response, err = lsp.request_sync(
    client,
    "workspace/executeCommand",
    { command = M.STATUS, arguments = { { message = false } } },
    timeout_ms or 2000,
    vim.api.nvim_get_current_buf()
  )
  if not response then
    return nil, err or "no answer"
  end
  if response.err then
    return nil, response.err.message or vim.inspect(response.err)
  end
  local status = response.result
  if type(status) ~= "table" or type(status.total) ~= "table" then
    return nil, "the server answered no usage figures (an older infill-lsp?)"
  end
  return status
end

return M
