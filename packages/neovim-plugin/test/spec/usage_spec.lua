-- infill.usage: the acceptance report's arguments and the `:Infill status` usage table, without a server.
local h = require("helpers")
local eq = h.eq

local usage = require("infill.usage")

--- A status as infill-lsp answers it (the fields the table reads).
local function status(total)
  return {
    server = { startedAt = "2026-11-23T16:51:08.093Z" },
    model = "deepseek-v4-flash",
    total = vim.tbl_extend("force", {
      requests = 1234,
      cacheHitTokens = 5000,
      cacheMissTokens = 320,
      completionTokens = 120,
      cost = 0.000342,
      unpricedTokens = 0,
      shown = 10,
      accepted = 3,
      acceptedPartly = 1,
      acceptedChars = 57,
      cacheHitRatio = 5000 / 5320,
      acceptanceRate = 0.4,
      latency = { endToEnd = { p50 = 180.4, p90 = 420.6 }, upstream = { p50 = vim.NIL, p90 = vim.NIL } },
    }, total or {}),
    log = { enabled = true, file = "/s/infill/usage/2026-11.jsonl", error = vim.NIL },
  }
end

describe("infill.usage", function()
  it("formats counts, costs and shares as infill usage does", function()
    for _, case in ipairs({ { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 1234567, "1,234,567" } }) do
      eq(case[2], usage.format_count(case[1]))
    end
    -- The same table as @infill/core's formatCost.
    for _, case in ipairs({
      { 0, "$0" },
      { 0.0000142, "$0.000014" },
      { 0.00642275, "$0.006423" },
      { 0.0051, "$0.005100" },
      { 0.5, "$0.5000" },
      { 0.123456, "$0.1235" },
      { 12.345, "$12.35" },
      { 1234.5, "$1234.50" },
    }) do
      eq(case[2], usage.format_cost(case[1]), tostring(case[1]))
    end
    eq("94 %", usage.format_percent(5000 / 5320))
    eq("–", usage.format_percent(vim.NIL))
  end)

  it("renders the status as a short table", function()
    eq({
      "usage of this server since 16:51 UTC, deepseek-v4-flash (costs are estimates at list prices):",
      "  requests  prompt tokens  cached  output tokens  est. cost  shown  taken  rate",
      "     1,234          5,320    94 %            120  $0.000342     10      4  40 %",
      "  taken: 3 whole, 1 in part, 57 characters; latency p50/p90: 180/421 ms to a new suggestion, – upstream",
      "  days' totals: /s/infill/usage/2026-11.jsonl (`infill usage` prints them)",
    }, usage.status_lines(status()))
  end)

  it(
    "adds what is kept at each horizon, per dollar and per 1k output tokens, and the figures by language and context",
    function()
      local s = status({
        acceptedCharsPerDollar = 166666.67,
        acceptedCharsPer1kOutputTokens = 475,
        retained = {
          {
            seconds = 30,
            checkedChars = 57,
            retainedChars = 50,
            rate = 50 / 57,
            perDollar = 146198.8,
            per1kOutputTokens = 416.7,
          },
          {
            seconds = 600,
            checkedChars = 0,
            retainedChars = 0,
            rate = vim.NIL,
            perDollar = vim.NIL,
            per1kOutputTokens = vim.NIL,
          },
        },
      })
      local figures = { requests = 1234, shown = 10, accepted = 3, acceptedPartly = 1, acceptedChars = 57 }
      s.languages = { { language = "lua", figures = figures } }
      s.contexts = {
        { context = "on", figures = figures },
        {
          context = "holdout",
          figures = { requests = 2, shown = 0, accepted = 0, acceptedPartly = 0, acceptedChars = 0 },
        },
      }
      local lines = usage.status_lines(s)
      eq({
        "  kept where it went: 30 s 88 % (50 of 57 chars), 10 min –",
        "  per dollar: 166,667 chars taken, – kept at 10 min; per 1k output tokens: 475.0 taken, – kept",
        "  by language: lua 1,234 requests, 4 of 10 taken, 57 chars",
        "  by context: with context 1,234 requests, 4 of 10 taken, 57 chars; held out 2 requests, 0 of 0 taken, 0 chars",
      }, { lines[5], lines[6], lines[7], lines[8] })
    end
  )

  it(
    "adds next edits once the server asked for any: taken of shown, dismissed, and what is kept of them",
    function()
      local s = status()
      s.nextEdits =
        { requests = 0, shown = 0, cost = 0, accepted = 0, acceptanceRate = vim.NIL, dismissed = 0 }
      eq(5, #usage.status_lines(s))
      s.nextEdits = {
        requests = 2,
        shown = 4,
        cost = 0.00021,
        accepted = 3,
        acceptanceRate = 0.75,
        dismissed = 1,
        retained = {
          { seconds = 30, checkedChars = 9, retainedChars = 9, rate = 1 },
          { seconds = 600, checkedChars = 0, retainedChars = 0, rate = vim.NIL },
        },
      }
      eq(
        "  next edits: 2 requests, est. $0.000210, taken 3 of 4 (75 %), 1 dismissed; 9 chars applied, 100 % kept at 30 s",
        usage.status_lines(s)[5]
      )
    end
  )

  it("names retention horizons as infill usage does", function()
    for _, case in ipairs({
      { 30, "30 s" },
      { 0.5, "0.5 s" },
      { 90, "90 s" },
      { 120, "2 min" },
      { 600, "10 min" },
      { 7200, "2 h" },
    }) do
      eq(case[2], usage.format_horizon(case[1]))
    end
  end)

  it("marks a cost that leaves unpriced tokens out, and says when the log cannot be written", function()
    local s = status({ unpricedTokens = 4100 })
    s.log = { enabled = true, file = "/s/x.jsonl", error = "cannot write the usage log /s/x.jsonl: EACCES" }
    local lines = usage.status_lines(s)
    h.contains(lines[3], "$0.000342*")
    h.contains(table.concat(lines, "\n"), "* 4,100 tokens of models without a price are not in the cost")
    eq("  cannot write the usage log /s/x.jsonl: EACCES", lines[#lines])
  end)

  it("reads the id and reach of an item's infill.accepted command, and nothing else", function()
    eq(
      { id = "s3", chars = 12 },
      usage.accepted_argument({ command = "infill.accepted", arguments = { { id = "s3", chars = 12 } } })
    )
    eq(nil, usage.accepted_argument(nil))
    eq(nil, usage.accepted_argument({ command = "other", arguments = { { id = "s3", chars = 12 } } }))
    eq(nil, usage.accepted_argument({ command = "infill.accepted", arguments = { { id = "s3" } } }))
  end)
end)
