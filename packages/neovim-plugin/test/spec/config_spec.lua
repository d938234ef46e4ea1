local h = require("helpers")
local config = require("infill.config")

describe("config", function()
  it("works with no options", function()
    local opts, problems = config.setup()
    h.eq({}, problems)
    h.eq(config.defaults, opts)
    h.eq("<M-l>", opts.keymaps.accept)
    h.eq(true, opts.auto_trigger)
    h.eq(20, opts.debounce)
    h.eq(false, opts.use_native)
    h.eq("InfillSuggestion", opts.highlight)
    h.eq(false, opts.filetypes.gitcommit)
    h.eq(true, opts.filetypes["*"])
  end)

  it("merges tables key by key and replaces lists", function()
    local opts = config.setup({
      keymaps = { accept = "<C-l>", dismiss = false },
      filetypes = { markdown = false },
      root_markers = { "package.json" },
      cmd = { "infill-lsp", "--stdio" },
      settings = { provider = "sim", languages = { lua = false } },
    })
    h.eq("<C-l>", opts.keymaps.accept)
    h.eq(false, opts.keymaps.dismiss)
    h.eq("<M-]>", opts.keymaps.next)
    h.eq(false, opts.filetypes.markdown)
    h.eq(false, opts.filetypes.help)
    h.eq({ "package.json" }, opts.root_markers)
    h.eq({ "infill-lsp", "--stdio" }, opts.cmd)
    h.eq({ provider = "sim", languages = { lua = false } }, opts.settings)
    h.eq(config.options, opts)
  end)

  it("keymaps = false turns them all off", function()
    h.eq(false, config.setup({ keymaps = false }).keymaps)
  end)

  it("reports wrong types and unknown keys, and keeps the defaults for them", function()
    local opts, problems = config.setup({
      debounce = "fast",
      auto_trigger = 1,
      keymaps = { accept = 1, bogus = "x" },
      filetypes = { lua = "yes" },
      cmd = {},
      root_markers = { ".git", { "package.json", 3 } },
      colour = "red",
    })
    h.eq({
      'filetypes["lua"] must be a boolean or a function',
      'keymap "accept" must be a string or false',
      'option "auto_trigger" must be a boolean, got number',
      'option "cmd" must be a non-empty list of strings',
      'option "debounce" must be a number, got string',
      'option "root_markers" must be a list of names or of lists of names',
      'unknown keymap "bogus"',
      'unknown option "colour"',
    }, problems)
    h.eq(20, opts.debounce)
    h.eq(true, opts.auto_trigger)
    h.eq(nil, opts.colour)
    h.eq(nil, opts.cmd, "an empty cmd falls back to finding the server")
    h.eq(config.defaults.root_markers, opts.root_markers)
  end)

  it("next_edit: merged key by key, checked, and a wrong field keeps its default", function()
    local opts, problems = config.setup({ next_edit = { debounce = 300 } })
    h.eq({}, problems)
    h.eq({ auto_trigger = true, debounce = 300, sign = false }, opts.next_edit)
    h.eq("<M-n>", opts.keymaps.next_edit)
    h.eq(false, config.next_edits_enabled(), "off until settings.nextEdit.enabled")
    opts, problems = config.setup({
      next_edit = { debounce = -1, sign = "abc", auto_trigger = "yes", colour = 1 },
      settings = { nextEdit = { enabled = true } },
    })
    h.eq({
      "next_edit.auto_trigger must be a boolean, got string",
      "next_edit.debounce must be >= 0",
      "next_edit.sign must be false or text one or two cells wide",
      'unknown next_edit option "colour"',
    }, problems)
    h.eq(config.defaults.next_edit, opts.next_edit)
    h.eq(true, config.next_edits_enabled())
    h.eq(">", config.setup({ next_edit = { sign = ">" } }).next_edit.sign)
  end)

  it("refuses a non-table", function()
    h.ok(not pcall(config.setup, "nope"))
  end)

  it("use_native needs vim.lsp.inline_completion", function()
    local opts, problems = config.setup({ use_native = true })
    if vim.lsp.inline_completion then
      h.eq({}, problems)
      h.eq(true, opts.use_native)
    else
      h.eq(1, #problems)
      h.contains(problems[1], "0.12")
      h.eq(false, opts.use_native)
    end
  end)
end)
