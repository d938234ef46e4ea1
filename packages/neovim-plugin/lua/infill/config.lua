---@brief Options of `require("infill").setup()`: defaults, merging and validation.

---@alias infill.FiletypeRule boolean|fun(bufnr: integer): boolean

--- Keys; `false` leaves that key alone. The ghost-text keys are insert-mode keys; the `next_edit` ones work in normal
--- and insert mode and are set only when next edits are on (`settings.nextEdit.enabled`).
---@class (exact) infill.Keymaps
---@field accept? string|false Accept the whole suggestion. Default `"<M-l>"`.
---@field accept_word? string|false Accept the next word. Default `"<M-Right>"`.
---@field accept_line? string|false Accept the rest of the line. Default `"<M-C-Right>"`.
---@field next? string|false Show the next suggestion. Default `"<M-]>"`.
---@field prev? string|false Show the previous suggestion. Default `"<M-[>"`.
---@field dismiss? string|false Hide the suggestion. Default `"<C-]>"`.
---@field suggest? string|false Ask for a suggestion now. Default `"<M-\\>"`.
---@field next_edit? string|false Jump to the next edit shown; at it, apply it. Default `"<M-n>"`.
---@field next_edit_dismiss? string|false Hide the next edit. Default `"<M-x>"`.
---@field next_edit_request? string|false Ask for the next edit now. Default `"<M-N>"`.

--- When the plugin asks for next edits and how it shows them (`:help infill-next-edit`).
---@class (exact) infill.NextEditOpts
---@field auto_trigger? boolean Ask once typing pauses and when the cursor moves in normal mode (`false`: only `next_edit_request()`). Default `true`.
---@field debounce? integer ms of quiet before asking. Default `150`.
---@field sign? string|false Sign-column text on the edit's first line (and beside the off-screen hint), or `false` for none: with 'signcolumn' `auto`, a sign that comes and goes shifts the text. Default `false`.

--- Next-edit settings of the server (`:help infill-next-edit`), merged key by key.
---@class (exact) infill.NextEditSettings
---@field enabled? boolean Predict the change the user will make next, anywhere in the region around the cursor (`textDocument/copilotInlineEdit`, and code actions). Default `false`.
---@field provider? "deepseek"|"sim"|"ollama"|"llamacpp"|"openai-compatible" Where next edits come from. Default: the `provider` setting.
---@field format? "zeta"|"sweep"|"instinct"|"deepseek" The prompt the edit model was trained on; required for `ollama`, `llamacpp` and `openai-compatible`. Default `"deepseek"` for `deepseek` and `sim`.
---@field model? string The edit model's id. Default: the provider's.
---@field baseUrl? string The edit model's base URL. Default: `baseUrl` when `nextEdit.provider` is `provider`, else the provider's.
---@field apiKeyEnv? string The name of the variable holding the edit model's key (never the key). Default: `apiKeyEnv` when `nextEdit.provider` is `provider`, else the provider's.
---@field debounceMs? integer Longest pause after an edit before asking, in ms (0-5000); with `adaptiveDebounce`, learned from the typing. Default `300`.
---@field maxRegionLines? integer Most lines the model may rewrite around the cursor (3-400). Default `40`.

--- Repository context settings of the server, merged key by key.
---@class (exact) infill.ContextSettings
---@field enabled? boolean Put declarations of imported names and similar code from other files at the start of the prompt. Default `true`.
---@field maxTokens? integer Budget of the context block, in estimated tokens, taken out of `contextTokens`. Default `1024`.
---@field exclude? string[] Gitignore-style patterns of files never read or sent, on top of `.gitignore` and the built-in secret patterns. Default `{}`.
---@field holdout? number The share of requests (0-1) sent without the context block, to measure whether context earns what it costs (`infill usage --by context`). Default `0`.
---@field typeDefinitionMs? integer How long a request waits for the editor's language servers to say where the type of the receiver at the cursor is declared, in ms (0-2000); an answer that comes later serves the next request there; 0 never asks. Default `50`.

--- Prices of a model, in US dollars per million tokens.
---@class (exact) infill.Price
---@field cacheHit number Prompt tokens served from the provider's cache.
---@field cacheMiss number Other prompt tokens.
---@field output number Generated tokens.

--- The server's settings (`:help infill-option-settings`; the server's README has the same table). Every one is
--- optional: the server has a default for each.
---@class (exact) infill.Settings
---@field provider? "deepseek"|"sim"|"ollama"|"llamacpp"|"codestral"|"openai-compatible" Where completions come from; `sim` is the embedded simulator (no key, no network). Default `"deepseek"`.
---@field model? string Model id. Default `INFILL_MODEL`, else the provider's.
---@field baseUrl? string API base URL. Default `INFILL_BASE_URL`, else the provider's.
---@field apiKeyEnv? string The name of the environment variable holding the key (never the key). Default: the provider's (`DEEPSEEK_API_KEY`, `CODESTRAL_API_KEY`; none for the others).
---@field allowInsecureHttp? boolean Allow plain `http://` to another machine (loopback is always allowed). Default `false`.
---@field maxTokens? integer Most tokens generated per request, 1-4096. Default `256`.
---@field temperature? number Sampling temperature, 0-2. Default `0`.
---@field debounceMs? integer Longest quiet time before going upstream, in ms (0: none). Default `100`.
---@field adaptiveDebounce? boolean Learn each document's typing cadence and wait just longer than the gap between keystrokes, at most `debounceMs`. Default `true`.
---@field maxConcurrent? integer Most upstream requests in flight at once, 1-64. Default `4`.
---@field preconnect? boolean Open the connection to the API ahead of the first completion. Default `true`.
---@field hotStreak? { maxTokens?: integer } `maxTokens`: tokens read past the end of a block shown and kept as the next suggestions, shown from memory once the shown one is accepted; `0` turns it off. Default `{ maxTokens = 128 }`.
---@field prefetch? boolean Once a suggestion is accepted and none is remembered for the new cursor, ask for the next one at once. Default `true`.
---@field alternatives? integer Candidates a suggestion asked for (never typing) may bring, 1-5; cycled with the `next`/`prev` keys. Each costs a request. Default `1`.
---@field contextTokens? integer Token budget of prompt + suffix. Default `4096`.
---@field lineMode? "auto"|"single-line"|"multi-line" One line mid-line and a block on an empty line (`auto`), or always one of them. Default `"auto"`.
---@field enable? boolean Master switch; the plugin sets it from `:Infill enable`/`disable`. Default `true`.
---@field languages? table<string, boolean> Per-language switch by LSP language id, `"*"` as the fallback. Default `{}`.
---@field timeoutMs? integer Bound of one upstream request, in ms. Default `10000`.
---@field logLevel? "off"|"error"|"warn"|"info"|"debug" Verbosity of the server's log messages (`:Infill log`). Default `"warn"`.
---@field metrics? boolean Send `$/infill/metrics` (latency, usage) after each completion. Default `false`.
---@field grammarIdleSeconds? integer Seconds a tree-sitter grammar stays loaded after a document of its language last used it; `0` keeps grammars for good. Default `600`.
---@field context? infill.ContextSettings Repository context.
---@field nextEdit? infill.NextEditSettings Next-edit suggestions: off until `enabled`.
---@field prices? table<string, infill.Price> Prices by model id, replacing a built-in entry or adding one. Default `{}`.
---@field usage? { persist?: boolean, retentionChecks?: number[] } `persist`: write each day's totals for `infill usage` (default `true`); `retentionChecks`: when to check how much of an accepted suggestion is kept, in seconds (default `{ 30, 120, 300, 600 }`).

--- What `require("infill").setup()` takes: every field is optional, and a missing one keeps its default.
---@class (exact) infill.UserOpts
---@field enabled? boolean Start with suggestions on (`:Infill toggle` flips it). Default `true`.
---@field cmd? string[]|fun(): string[] How to launch the server. Default: the server built in the repository the plugin came from (`node <repo>/packages/lsp-server/dist/infill-lsp.js --stdio`), else `infill-lsp --stdio` from `PATH`.
---@field env? table<string, string> Extra environment for the server; the editor's own (`DEEPSEEK_API_KEY`, `INFILL_BASE_URL`, `INFILL_MODEL`) is inherited anyway. Default `{}`.
---@field root_markers? (string|string[])[] Files or folders that mark a project root (one server per root; its folder is the server's workspace). The list order decides the priority; markers in a nested list are of equal priority; `*` in a name stands for any characters (`*.csproj`). Default: version control (`.git`, `.hg`, `.jj`, `.svn`), else a project file (`package.json`, `tsconfig.json`, `jsconfig.json`, `deno.json`, `pyproject.toml`, `setup.py`, `go.mod`, `Cargo.toml`, `compile_commands.json`, `compile_flags.txt`, `pom.xml`, `build.gradle`, `build.gradle.kts`, `build.sbt`, `*.csproj`, `*.sln`, `composer.json`, `Gemfile`, `Package.swift`, `mix.exs`, `dune-project`).
---@field filetypes? table<string, infill.FiletypeRule> Which filetypes to serve: `true`, `false` or a function of the buffer; `"*"` is the fallback. Merged key by key with the default, which serves every filetype but help and commit messages.
---@field auto_trigger? boolean Ask for suggestions while typing in insert mode. Default `true`.
---@field debounce? integer Client-side quiet time before asking, in ms (the server debounces too). Default `20`.
---@field keymaps? infill.Keymaps|false Insert-mode keymaps, merged key by key with the defaults; `false` turns all of them off.
---@field highlight? string Highlight group of the ghost text (`InfillSuggestion` is linked to `Comment` by default). Default `"InfillSuggestion"`.
---@field stream? boolean Draw a block suggestion line by line while the server still generates it (partial results); the plugin's own ghost text only. Default `true`.
---@field use_native? boolean On Neovim 0.12+, show ghost text with the built-in `vim.lsp.inline_completion` instead of the plugin's own rendering. Default `false`.
---@field notify? boolean Show the messages nobody asked for (the server's: a missing or rejected key, bad settings; the plugin's: a server that exited, an action that failed) through `vim.notify`, once each; with `false` they only go to `:Infill log` and `:checkhealth infill`. Default `true`.
---@field type_definitions? boolean Answer the server's `infill/typeDefinitions` by asking the buffer's other language servers where the type of the value before `.` is declared, so that its members reach the prompt. Default `true`.
---@field settings? infill.Settings Settings passed to the server (`initializationOptions` and the `infill` section of `workspace/configuration`). Default `{}`.

--- The options in effect: the user's merged over the defaults, every field present (`cmd` may be nil).
---@class (exact) infill.Opts
---@field enabled boolean
---@field cmd? string[]|fun(): string[]
---@field env table<string, string>
---@field root_markers (string|string[])[]
---@field filetypes table<string, infill.FiletypeRule>
---@field auto_trigger boolean
---@field debounce integer
---@field keymaps infill.Keymaps|false
---@field highlight string
---@field stream boolean
---@field use_native boolean
---@field notify boolean
---@field next_edit infill.NextEditOpts
---@field type_definitions boolean
---@field settings infill.Settings

local M = {}

---@type infill.Opts
M.defaults = {
  enabled = true,
  cmd = nil,
  env = {},
  -- The repository first: a monorepo's packages then share one server, and their imports of each other are inside
  -- its workspace. A project file only for projects outside version control: those the server reads to resolve
  -- imports (a Maven source root, composer.json's PSR-4 map, a compilation database), and C#'s project and solution.
  root_markers = {
    { ".git", ".hg", ".jj", ".svn" },
    {
      "package.json",
      "tsconfig.json",
      "jsconfig.json",
      "deno.json",
      "pyproject.toml",
      "setup.py",
      "go.mod",
      "Cargo.toml",
      "compile_commands.json",
      "compile_flags.txt",
      "pom.xml",
      "build.gradle",
      "build.gradle.kts",
      "build.sbt",
      "*.csproj",
      "*.sln",
      "composer.json",
      "Gemfile",
      "Package.swift",
      "mix.exs",
      "dune-project",
    },
  },
  filetypes = {
    ["*"] = true,
    help = false,
    gitcommit = false,
    gitrebase = false,
    hgcommit = false,
    svn = false,
    cvs = false,
    ["."] = false,
  },
  auto_trigger = true,
  debounce = 20,
  keymaps = {
    accept = "<M-l>",
    accept_word = "<M-Right>",
    accept_line = "<M-C-Right>",
    next = "<M-]>",
    prev = "<M-[>",
    dismiss = "<C-]>",
    suggest = "<M-\\>",
    next_edit = "<M-n>",
    next_edit_dismiss = "<M-x>",
    next_edit_request = "<M-N>",
  },
  highlight = "InfillSuggestion",
  stream = true,
  use_native = false,
  notify = true,
  next_edit = {
    auto_trigger = true,
    debounce = 150,
    sign = false,
  },
  type_definitions = true,
  settings = {},
}

---@type infill.Opts
M.options = vim.deepcopy(M.defaults)

---@type table<string, string|string[]>
local types = {
  enabled = "boolean",
  cmd = { "table", "function", "nil" },
  env = "table",
  root_markers = "table",
  filetypes = "table",
  auto_trigger = "boolean",
  debounce = "number",
  keymaps = { "table", "boolean" },
  highlight = "string",
  stream = "boolean",
  use_native = "boolean",
  notify = "boolean",
  next_edit = "table",
  type_definitions = "boolean",
  settings = "table",
}

--- Types of the fields of the `next_edit` option.
---@type table<string, string>
local next_edit_types = {
  auto_trigger = "boolean",
  debounce = "number",
  sign = "string",
}

--- Deep merge where lists (and functions) replace instead of merging index by index.
---@param base any
---@param override any
---@return any
local function merge(base, override)
  if override == nil then
    return vim.deepcopy(base)
  end
  if type(base) ~= "table" or type(override) ~= "table" or vim.islist(override) or vim.islist(base) then
    return vim.deepcopy(override)
  end
  local out = vim.deepcopy(base)
  for key, value in pairs(override) do
    out[key] = merge(base[key], value)
  end
  return out
end

---@param value any
---@param expected string|string[]
---@return boolean
local function has_type(value, expected)
  for _, name in ipairs(type(expected) == "table" and expected or { expected }) do
    if type(value) == name then
      return true
    end
  end
  return false
end

--- What is wrong with `value` as the field `key` of the `next_edit` option, or nil.
---@param key any
---@param value any
---@return string?
local function next_edit_problem(key, value)
  local expected = next_edit_types[key]
  if not expected then
    return ("unknown next_edit option %q"):format(tostring(key))
  elseif key == "sign" then
    if value ~= false and (type(value) ~= "string" or value == "" or vim.fn.strdisplaywidth(value) > 2) then
      return "next_edit.sign must be false or text one or two cells wide"
    end
  elseif not has_type(value, expected) then
    return ("next_edit.%s must be a %s, got %s"):format(key, expected, type(value))
  elseif key == "debounce" and value < 0 then
    return "next_edit.debounce must be >= 0"
  end
  return nil
end

--- Whether `markers` is a list of names or of lists of names.
---@param markers table
---@return boolean
local function valid_root_markers(markers)
  if not vim.islist(markers) then
    return false
  end
  for _, entry in ipairs(markers) do
    if type(entry) ~= "string" and not (type(entry) == "table" and vim.islist(entry)) then
      return false
    end
    for _, name in ipairs(type(entry) == "table" and entry or {}) do
      if type(name) ~= "string" then
        return false
      end
    end
  end
  return true
end

--- Check a merged configuration; returns one message per problem (empty when valid).
---@param opts table
---@return string[]
function M.validate(opts)
  local problems = {}
  local function problem(fmt, ...)
    table.insert(problems, fmt:format(...))
  end
  for key, value in pairs(opts) do
    local expected = types[key]
    if not expected then
      problem("unknown option %q", tostring(key))
    elseif not has_type(value, expected) then
      local names = type(expected) == "table" and table.concat(expected, " or ") or expected
      problem("option %q must be a %s, got %s", key, names, type(value))
    end
  end
  if type(opts.cmd) == "table" and (#opts.cmd == 0 or not vim.islist(opts.cmd)) then
    problem('option "cmd" must be a non-empty list of strings')
  end
  if type(opts.root_markers) == "table" and not valid_root_markers(opts.root_markers) then
    problem('option "root_markers" must be a list of names or of lists of names')
  end
  if type(opts.debounce) == "number" and opts.debounce < 0 then
    problem('option "debounce" must be >= 0')
  end
  if opts.keymaps == true then
    problem('option "keymaps" must be a table or false')
  elseif type(opts.keymaps) == "table" then
    for name, lhs in pairs(opts.keymaps) do
      if M.defaults.keymaps[name] == nil then
        problem("unknown keymap %q", tostring(name))
      elseif lhs ~= false and type(lhs) ~= "string" then
        problem("keymap %q must be a string or false", name)
      end
    end
  end
  if type(opts.next_edit) == "table" then
    for key, value in pairs(opts.next_edit) do
      local why = next_edit_problem(key, value)
      if why then
        problem("%s", why)
      end
    end
  end
  if type(opts.filetypes) == "table" then
    for ft, rule in pairs(opts.filetypes) do
      if type(rule) ~= "boolean" and type(rule) ~= "function" then
        problem("filetypes[%q] must be a boolean or a function", tostring(ft))
      end
    end
  end
  if opts.use_native and vim.lsp.inline_completion == nil then
    problem('"use_native" needs Neovim 0.12+ (vim.lsp.inline_completion); using the plugin\'s rendering')
  end
  table.sort(problems)
  return problems
end

--- Are next edits turned on in the server's settings (`settings.nextEdit.enabled`)?
---@return boolean
function M.next_edits_enabled()
  local next_edit = M.options.settings.nextEdit
  return type(next_edit) == "table" and next_edit.enabled == true
end

--- Merge user options over the defaults and store them in `M.options`.
---@param user? infill.UserOpts
---@return infill.Opts config, string[] problems
function M.setup(user)
  if user ~= nil and type(user) ~= "table" then
    error(("infill: setup() takes a table of options, got %s"):format(type(user)), 2)
  end
  local opts = merge(M.defaults, user or {})
  local problems = M.validate(opts)
  for key in pairs(opts) do
    if not types[key] then
      opts[key] = nil
    end
  end
  for key, expected in pairs(types) do
    if not has_type(opts[key], expected) then
      opts[key] = vim.deepcopy(M.defaults[key])
    end
  end
  if opts.keymaps == true then
    opts.keymaps = vim.deepcopy(M.defaults.keymaps)
  end
  for key, value in pairs(opts.next_edit) do
    if next_edit_problem(key, value) then
      opts.next_edit[key] = vim.deepcopy(M.defaults.next_edit[key])
    end
  end
  if type(opts.cmd) == "table" and (#opts.cmd == 0 or not vim.islist(opts.cmd)) then
    opts.cmd = nil
  end
  if not valid_root_markers(opts.root_markers) then
    opts.root_markers = vim.deepcopy(M.defaults.root_markers)
  end
  if opts.use_native and vim.lsp.inline_completion == nil then
    opts.use_native = false
  end
  M.options = opts
  return opts, problems
end

return M
