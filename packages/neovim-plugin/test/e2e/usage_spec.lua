-- End to end: what the plugin tells the built infill-lsp about accepted suggestions, and the usage figures that
-- `:Infill status` shows, `infill.status` answers and `infill usage` prints, for the same work.
local h = require("helpers")
local eq, ok = h.eq, h.ok

local infill = require("infill")
local lsp = require("infill.lsp")
local usage = require("infill.usage")

-- No repository context: each test's suggestion must not depend on what the ones before wrote in other files. What
-- is taken is checked half a second after (instead of 30 s … 10 min).
infill.setup({
  settings = { debounceMs = 10, context = { enabled = false }, usage = { retentionChecks = { 0.5 } } },
})

local project = h.project("usage")
local n = 0

--- Edit a new file of the project (one server for all of them) and enter insert mode at the end of line 6.
local function start()
  n = n + 1
  h.edit_and_append(("%s/file%d.js"):format(project, n), h.ADD_SUB, { 6, 2 })
end

--- The server's figures, from `infill.status`.
local function totals()
  local status, err = usage.fetch(lsp.get_client(0))
  return ok(status, err).total
end

--- Wait until the server's figures satisfy `check`.
local function wait_totals(what, check)
  local last
  return h.wait_for(
    function()
      last = totals()
      return check(last) and last
    end,
    nil,
    function()
      return what .. " (the figures: " .. vim.inspect(last) .. ")"
    end
  )
end

--- Wait for `expected` as ghost text; returns how far into its suggestion the shown item reaches (the `chars` of
--- its `infill.accepted` command): where the suggestion was anchored depends on which keystroke asked first.
local function wait_ghost(expected)
  h.wait_for(
    function()
      return h.ghost_text() == expected
    end,
    nil,
    function()
      return ("ghost text %s (shown: %s)"):format(vim.inspect(expected), vim.inspect(h.ghost_text()))
    end
  )
  local item = require("infill.suggestion").state.items[1]
  return ok(usage.accepted_argument(item and item.command), "the item's infill.accepted command").chars
end

describe("usage", function()
  after_each(function()
    if vim.api.nvim_get_mode().mode ~= "n" then
      h.escape()
    end
    infill.dismiss()
  end)

  -- First: no earlier take is still waiting for its check.
  it("what is taken is checked at the retention horizon, and :Infill status shows what is kept", function()
    start()
    local before = totals()
    local checked = before.retained[1].checkedChars
    h.type("r")
    local reach = wait_ghost("eturn a + b;")
    h.input("<M-l>", function()
      return vim.api.nvim_get_current_line() == "  return a + b;"
    end, "the accepted line")
    local t = wait_totals("the take checked at 0.5 s", function(figures)
      return figures.retained[1].checkedChars == checked + reach
    end)
    eq(0.5, t.retained[1].seconds)
    eq(before.retained[1].retainedChars + reach, t.retained[1].retainedChars)
    local out = vim.api.nvim_exec2("Infill status", { output = true }).output
    h.contains(out, "  kept where it went: 0.5 s ")
    h.contains(out, ("(%s of %s chars)"):format(t.retained[1].retainedChars, t.retained[1].checkedChars))
    h.contains(out, "  by language: javascript ")
  end)

  it("accepting a suggestion increments the accepted count :Infill status shows", function()
    start()
    local before = totals()
    h.type("r")
    local reach = wait_ghost("eturn a + b;")
    h.input("<M-l>", function()
      return vim.api.nvim_get_current_line() == "  return a + b;"
    end, "the accepted line")
    local after = wait_totals("the acceptance to be counted", function(t)
      return t.accepted == before.accepted + 1
    end)
    eq(before.acceptedChars + reach, after.acceptedChars)
    local out = vim.api.nvim_exec2("Infill status", { output = true }).output
    h.contains(out, ("taken: %d whole, 0 in part"):format(after.accepted))
  end)

  it("accept_word() counts the suggestion taken in part, accept_line() to its end takes it whole", function()
    start()
    local before = totals()
    h.type("r")
    local reach = wait_ghost("eturn a + b;")
    h.input("<M-Right>", function()
      return vim.api.nvim_get_current_line() == "  return"
    end, "accept_word via <M-Right>")
    wait_totals("a word taken", function(t)
      return t.acceptedPartly == before.acceptedPartly + 1
        and t.acceptedChars == before.acceptedChars + reach - #" a + b;"
    end)
    ok(infill.accept_line())
    eq("  return a + b;", vim.api.nvim_get_current_line())
    wait_totals("the rest taken", function(t)
      return t.acceptedPartly == before.acceptedPartly
        and t.accepted == before.accepted + 1
        and t.acceptedChars == before.acceptedChars + reach
    end)
  end)

  it("typing a suggestion through counts as taking it", function()
    start()
    local before = totals()
    h.type("r")
    local reach = wait_ghost("eturn a + b;")
    h.type("eturn a + b;")
    -- The request after the last keystroke finds the suggestion typed to its end.
    wait_totals("the typed suggestion counted", function(t)
      return t.accepted == before.accepted + 1 and t.acceptedChars == before.acceptedChars + reach
    end)
  end)

  it("a suggestion dismissed and typed over counts as shown only", function()
    start()
    local before = totals()
    -- Entering insert mode asks: the suggestion is anchored at the cursor, nothing of it typed.
    wait_ghost("return a + b;")
    h.input("<C-]>", function()
      return h.ghost_text() == nil
    end, "the suggestion dismissed")
    h.type("x")
    h.wait_for(function()
      return not require("infill.suggestion").busy()
    end, nil, "requests to settle")
    local t = wait_totals("the suggestion counted shown", function(figures)
      return figures.shown > before.shown
    end)
    eq(
      { before.accepted, before.acceptedPartly, before.acceptedChars },
      { t.accepted, t.acceptedPartly, t.acceptedChars }
    )
  end)

  it(
    "ghost text drawn is reported shown (infill.shown): counted once, however often type-through redraws it",
    function()
      start()
      local before = totals()
      h.type("r")
      wait_ghost("eturn a + b;")
      wait_totals("the suggestion drawn counted shown", function(t)
        return t.shown == before.shown + 1
      end)
      h.type("et")
      wait_ghost("urn a + b;")
      local status = usage.fetch(lsp.get_client(0))
      eq("client", status.shownBy)
      eq(before.shown + 1, status.total.shown)
    end
  )

  it(":Infill status, infill.status and `infill usage` show the same numbers", function()
    start()
    h.type("r")
    wait_ghost("eturn a + b;")
    h.input("<M-l>", function()
      return vim.api.nvim_get_current_line() == "  return a + b;"
    end, "the accepted line")
    wait_totals("the acceptance counted", function(figures)
      return figures.accepted > 0
    end)
    -- Figures that hold still across `:Infill status` (a request still counted, or the retention check at 0.5 s,
    -- may land between two looks): then it shows the table of these very figures.
    local status, out
    h.wait_for(function()
      local first = usage.fetch(lsp.get_client(0))
      out = vim.api.nvim_exec2("Infill status", { output = true }).output
      status = usage.fetch(lsp.get_client(0))
      return first and status and vim.deep_equal(first.total, status.total)
    end, nil, "figures that hold still across :Infill status")
    local t = status.total
    for _, line in ipairs(usage.status_lines(status)) do
      h.contains(out, line)
    end
    h.contains(out, ("  %s  "):format(usage.format_cost(t.cost)), "the estimated cost in the table")
    -- `infill usage` reads the log the server wrote (asking for the status wrote it).
    local cli = vim.fs.normalize(lsp.plugin_root() .. "/../core/dist/cli.js")
    ok(vim.uv.fs_stat(cli), cli .. " is missing: build first (npx --yes pnpm@10 build)")
    local result = vim.system({ "node", cli, "usage", "--json" }, { text = true }):wait()
    eq(0, result.code, result.stderr)
    local printed = vim.json.decode(result.stdout).total
    for _, field in ipairs({
      "requests",
      "cancelled",
      "superseded",
      "failed",
      "unreported",
      "cacheHitTokens",
      "cacheMissTokens",
      "completionTokens",
      "shown",
      "accepted",
      "acceptedPartly",
      "acceptedChars",
    }) do
      eq(t[field], printed[field], field)
    end
    ok(math.abs(t.cost - printed.cost) < 1e-12, ("cost %s vs %s"):format(t.cost, printed.cost))
  end)
end)
