---@brief `:checkhealth infill`: Neovim, the plugin, the server, the provider and a test request. Each problem comes
--- with a hint chosen by its kind: the server says the kind of its failures (`infill/probe`), the plugin knows the
--- kind of its own, and the server says which providers it knows and their defaults (`infill/providers`).

local M = {}

local health = vim.health

--- JSON's null (`vim.NIL` in an LSP answer) as nil.
---@generic T
---@param x T
---@return T?
local function value(x)
  if x == vim.NIL then
    return nil
  end
  return x
end

--- A provider the server knows, as `infill/providers` answers it.
---@class infill.Provider
---@field name string The `provider` setting's value.
---@field label string How people call it: `DeepSeek`, `Ollama`…
---@field baseUrl? string Where requests go unless `baseUrl` says otherwise.
---@field model? string The model unless `model` says otherwise.
---@field apiKeyEnv? string The key's variable unless `apiKeyEnv` says otherwise; nil for none.
---@field ["local"] boolean Whether it runs on this machine by default.

--- What a hint may name: the provider in use and what the server said about it.
---@class infill.HintContext
---@field provider string The `provider` setting (default `deepseek`).
---@field entry? infill.Provider Its defaults, from the server; nil when no server could be asked.
---@field model? string The model in use.
---@field key_env? string The key's variable.

---@alias infill.Hint string|fun(ctx: infill.HintContext): string

--- What to do about each kind of failure. The server's kinds are the `kind` of `infill/probe` and of its
--- `lastFailure` (`@infill/core`'s `failure.ts` says what each means; `no-key` is the server's own); the others are
--- the plugin's (`infill.PluginFailureKind`, and the test request's).
---@type table<string, infill.Hint>
M.HINTS = {
  ["no-key"] = function(ctx)
    return ("export %s in the shell that starts Neovim, or pass it in setup({ env = ... }) (or set "):format(
      ctx.key_env or "the key's variable (settings.apiKeyEnv)"
    ) .. 'settings.provider = "sim" to try infill offline), then restart Neovim'
  end,
  auth = function(ctx)
    return ("the provider rejected the key: check %s, then restart Neovim"):format(
      ctx.key_env or "the key's variable (settings.apiKeyEnv)"
    )
  end,
  balance = function(ctx)
    if ctx.provider == "deepseek" then
      return "top the account up at platform.deepseek.com; completions resume by themselves"
    end
    return "settle the payment with the provider; completions resume by themselves"
  end,
  ["rate-limit"] = "completions back off and resume by themselves; a larger settings.debounceMs or a smaller "
    .. "settings.maxConcurrent sends fewer requests",
  ["model-not-found"] = function(ctx)
    if ctx.provider == "ollama" then
      return ("pull the model with `ollama pull %s`, or set settings.model to one you have (`ollama list`)"):format(
        ctx.model or "<model>"
      )
    end
    local default = ctx.entry and value(ctx.entry.model)
    return "set settings.model (or INFILL_MODEL) to a model the provider has"
      .. (default and (" (its default is " .. default .. ")") or "")
  end,
  ["fim-unsupported"] = function(ctx)
    if ctx.provider == "llamacpp" then
      return "start llama-server with a model that can fill in the middle (e.g. Qwen2.5-Coder)"
    end
    return "use a model that can fill in the middle (e.g. qwen2.5-coder, codellama:code, starcoder2) in settings.model"
  end,
  ["no-endpoint"] = function(ctx)
    local default = ctx.entry and value(ctx.entry.baseUrl)
    return "set settings.baseUrl (or INFILL_BASE_URL) to where the provider serves FIM completions"
      .. (default and (" (its default is " .. default .. ")") or "")
  end,
  ["bad-request"] = "the provider refused a request, maybe that one only: completions go on; if none succeeds, "
    .. "see :Infill log",
  ["invalid-request"] = "fix the setting or variable the message names (plain http to another machine needs "
    .. "settings.allowInsecureHttp = true)",
  unavailable = function(ctx)
    if ctx.entry and ctx.entry["local"] then
      return "start the provider's server (`ollama serve`, `llama-server`) or fix settings.baseUrl"
    end
    return "the provider did not answer (an outage, the network, a proxy, or too slow): completions retry with "
      .. "backoff; check the network, or raise settings.timeoutMs"
  end,

  -- The plugin's own.
  ["server-not-found"] = function()
    return require("infill.lsp").install_hint
  end,
  ["server-outdated"] = "a server older than the plugin: update infill-lsp, or build it again in the plugin's "
    .. "repository (:help infill-setup)",
  ["server-version"] = "check that the command runs in a shell; set `cmd` in setup() to override",
  ["server-exit"] = "see :Infill log, and the LSP log (:lua vim.cmd.edit(vim.lsp.get_log_path())) for what it said",
  options = "fix the named option in setup() (:help infill-options)",
  ["action-error"] = "the suggestion was dropped; if it happens again, :Infill log has the error",
  ["probe-timeout"] = "see :Infill log; a slow provider needs a larger settings.timeoutMs",
  ["probe-failed"] = "see :Infill log",
}

--- The hint for a failure of `kind` (nil or unknown: look in the log).
---@param kind? string
---@param ctx? infill.HintContext
---@return string
function M.hint(kind, ctx)
  local hint = kind and M.HINTS[kind]
  if type(hint) == "function" then
    return hint(ctx or { provider = "deepseek" })
  end
  return hint or "see :Infill log"
end

--- Run the server command with `--version` (at most `timeout` ms).
---@param cmd string[]
---@param timeout? integer
---@return string? version, string? error
function M.server_version(cmd, timeout)
  local args = {}
  for _, arg in ipairs(cmd) do
    if arg ~= "--stdio" then
      table.insert(args, arg)
    end
  end
  table.insert(args, "--version")
  local ok, result = pcall(function()
    return vim.system(args, { text = true }):wait(timeout or 5000)
  end)
  if not ok then
    return nil, tostring(result)
  end
  if result.code ~= 0 then
    return nil, ("exit code %d: %s"):format(result.code, vim.trim(result.stderr or ""))
  end
  return vim.trim(result.stdout or ""), nil
end

---@class infill.Answer
---@field result? any What the server answered.
---@field error? string Why it did not.

---@class infill.AskFailure
---@field message string
---@field kind "server-not-found"|"probe-failed"|"probe-timeout"

--- Ask a server the requests `methods` (no params): a running client's (it has the workspace's settings), else a
--- short-lived server started with the same command, environment and settings, asked, and stopped afterwards.
---@param cmd? string[]
---@param client? vim.lsp.Client
---@param methods string[]
---@param timeout integer ms, for all of them
---@return table<string, infill.Answer> answers By method; a method without an entry got no answer.
---@return infill.AskFailure? failure Why some got no answer: no server, it exited, or the time ran out.
function M.ask(cmd, client, methods, timeout)
  local config = require("infill.config")
  local lsp = require("infill.lsp")
  local answers, pending, failure = {}, #methods, nil
  local function fail(message)
    failure = failure or { message = message, kind = "probe-failed" }
  end
  ---@param method string
  local function on_answer(method)
    return function(err, result)
      if answers[method] then
        return
      end
      answers[method] = err and { error = type(err) == "table" and err.message or tostring(err) }
        or { result = result }
      pending = pending - 1
    end
  end

  local rpc = nil
  if client then
    for _, method in ipairs(methods) do
      if not lsp.request(client, method, {}, on_answer(method), next(client.attached_buffers) or 0) then
        fail(("client %d did not send %s"):format(client.id, method))
      end
    end
  elseif not cmd then
    return answers, { message = "no server command", kind = "server-not-found" }
  else
    local settings = lsp.server_settings()
    local ok, started = pcall(vim.lsp.rpc.start, cmd, {
      notification = function() end,
      server_request = function(method, params)
        if method ~= "workspace/configuration" then
          return vim.NIL
        end
        local out = {}
        for i, item in ipairs(type(params) == "table" and params.items or {}) do
          out[i] = item.section == "infill" and settings or vim.NIL
        end
        return out
      end,
      on_exit = function(code)
        fail(("the server exited (code %s)"):format(tostring(code)))
      end,
      on_error = function(code, err)
        fail(("RPC error %s: %s"):format(tostring(code), vim.inspect(err)))
      end,
    }, { env = next(config.options.env) and config.options.env or nil })
    if not ok then
      return answers, { message = tostring(started), kind = "probe-failed" }
    end
    rpc = started
    rpc.request("initialize", {
      processId = vim.fn.getpid(),
      rootUri = vim.NIL,
      capabilities = {},
      initializationOptions = settings,
    }, function(err)
      if err then
        return fail(type(err) == "table" and err.message or tostring(err))
      end
      rpc.notify("initialized", {})
      for _, method in ipairs(methods) do
        rpc.request(method, {}, on_answer(method))
      end
    end)
  end
  vim.wait(timeout, function()
    return pending == 0 or failure ~= nil
  end, 10)
  if rpc then
    rpc.terminate()
  end
  if pending > 0 and not failure then
    failure = { message = ("no answer within %d ms"):format(timeout), kind = "probe-timeout" }
  end
  return answers, failure
end

--- Section "provider": the provider and its defaults as the server gives them, the key, the base URL, the test
--- request, and the last problem with their hints.
---@param cmd? string[]
---@param clients vim.lsp.Client[] The running ones.
local function check_provider(cmd, clients)
  local config = require("infill.config")
  local lsp = require("infill.lsp")
  local settings = config.options.settings
  local env = config.options.env
  local provider = settings.provider or "deepseek"

  -- The server that sent the last message knows its kind; any other has the same settings.
  local last = lsp.state.last_error
  local asked = last and last.client_id and vim.lsp.get_client_by_id(last.client_id) or clients[1]
  local answers, failure =
    M.ask(cmd, asked, { "infill/providers", "infill/probe" }, (settings.timeoutMs or 10000) + 5000)
  local catalogue = answers["infill/providers"]
  local probe = answers["infill/probe"] and value(answers["infill/probe"].result)
  local entry ---@type infill.Provider?
  local known = {}
  for _, item in ipairs(catalogue and type(catalogue.result) == "table" and catalogue.result.providers or {}) do
    table.insert(known, item.name)
    if item.name == provider then
      entry = item
    end
  end
  local key_env ---@type string?
  if probe then
    key_env = value(probe.apiKeyEnv)
  elseif provider ~= "sim" then
    key_env = settings.apiKeyEnv or (entry and value(entry.apiKeyEnv))
  end
  ---@type infill.HintContext
  local ctx = {
    provider = provider,
    entry = entry,
    model = probe and value(probe.model) or settings.model or (entry and value(entry.model)),
    key_env = key_env,
  }

  if provider == "sim" then
    health.ok('provider "sim": the embedded simulator, no key needed')
  else
    health.info(('provider "%s"%s'):format(provider, entry and (" (" .. entry.label .. ")") or ""))
  end
  if not catalogue then
    health.warn(
      "no server could be asked for the providers it knows and their defaults (key variable, base URL, model): "
        .. (failure and failure.message or "?"),
      { M.hint(failure and failure.kind, ctx) }
    )
  elseif catalogue.error then
    health.warn(
      "the server did not say which providers it knows and their defaults: " .. catalogue.error,
      { M.hint("server-outdated", ctx) }
    )
  elseif not entry then
    health.error(
      ('the server knows no provider "%s"'):format(provider),
      { "set settings.provider to one of: " .. table.concat(known, ", ") }
    )
  end

  if provider ~= "sim" then
    local key = key_env and (env[key_env] or vim.env[key_env])
    if key_env == nil and (entry or probe) then
      health.ok(("%s takes no key (set settings.apiKeyEnv if yours needs one)"):format(provider))
    elseif key_env and key and vim.trim(key) ~= "" then
      health.ok(("%s is set (%d characters)"):format(key_env, #vim.trim(key)))
    elseif key_env then
      health.error(("%s is not set: the server answers nothing"):format(key_env), { M.hint("no-key", ctx) })
    end
  end

  local base = settings.baseUrl or env.INFILL_BASE_URL or vim.env.INFILL_BASE_URL
  if base == "" then
    base = nil
  end
  local default_base = entry and value(entry.baseUrl)
  health.info(
    "base URL: "
      .. (
        base
        or (default_base and (default_base .. " (default)"))
        or (entry and "none set")
        or "unknown (no server to ask for the default)"
      )
  )

  if not probe then
    local why = answers["infill/probe"] and answers["infill/probe"].error
      or (failure and failure.message)
      or "?"
    health.warn(
      "could not send a test request: " .. why,
      { M.hint(not answers["infill/probe"] and failure and failure.kind or "probe-failed", ctx) }
    )
  else
    local where = ("%s at %s%s"):format(
      value(probe.label) or value(probe.provider) or "?",
      -- No URL in the answer when no request could be made (no key): where it would have gone.
      value(probe.baseUrl) or base or default_base or "?",
      value(probe.model) and (" (model " .. probe.model .. ")") or ""
    )
    if probe.ok then
      health.ok(("test request to %s: answered in %d ms"):format(where, value(probe.latencyMs) or 0))
    else
      health.error(
        ("test request to %s failed: %s"):format(where, value(probe.error) or "?"),
        { M.hint(value(probe.kind), ctx) }
      )
    end
  end

  -- The last failure of completions of a running server (a short-lived one has made none), and the last problem the
  -- plugin recorded: one line when they are the same message.
  local last_failure = probe and asked and value(probe.lastFailure) or nil
  if last then
    local kind = last.kind
    if kind == nil and last_failure and last_failure.message == last.message then
      kind, last_failure = last_failure.kind, nil
    end
    local report = last.type == 1 and health.error or health.warn
    report(
      ("last message (%s): %s"):format(os.date("%H:%M:%S", last.time), last.message),
      { M.hint(kind, ctx) }
    )
  end
  if last_failure then
    health.warn(
      ("last failure of completions (client %d, before this test request): %s"):format(
        asked.id,
        last_failure.message
      ),
      { M.hint(last_failure.kind, ctx) }
    )
  elseif not last then
    health.ok("no errors reported")
  end
end

--- Whether next edits are on, and any server that does not answer them.
function M.check_next_edits()
  local config = require("infill.config")
  if not config.next_edits_enabled() then
    health.info("next edits: off (settings.nextEdit.enabled = true turns them on; :help infill-next-edit)")
    return
  end
  local opts = config.options.next_edit
  health.ok(
    ("next edits: on (settings.nextEdit.enabled), %s"):format(
      opts.auto_trigger and ("asked after %d ms of quiet and on cursor moves"):format(opts.debounce)
        or "asked only on request (next_edit.auto_trigger = false)"
    )
  )
  local next_edit = package.loaded["infill.next_edit"]
  for client_id in pairs(next_edit and next_edit.state.unsupported or {}) do
    health.warn(
      ("client %d: the server does not answer %s, so it shows no next edits"):format(
        client_id,
        next_edit.METHOD
      ),
      { M.hint("server-outdated") }
    )
  end
end

function M.check()
  local config = require("infill.config")
  local lsp = require("infill.lsp")

  health.start("infill: Neovim")
  local v = vim.version()
  local version = ("%d.%d.%d"):format(v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.10") == 0 then
    health.error("Neovim " .. version .. " is too old: infill needs 0.10+ (inline virtual text)")
  else
    health.ok("Neovim " .. version)
  end
  if vim.lsp.inline_completion then
    health.info(
      config.options.use_native and "ghost text: Neovim's built-in vim.lsp.inline_completion (use_native)"
        or "ghost text: the plugin's own (set use_native = true to use vim.lsp.inline_completion)"
    )
  end
  if not lsp.state.setup_done then
    health.warn("setup() has not been called", { 'call require("infill").setup() (lazy.nvim: `opts = {}`)' })
  else
    health.ok(
      ("setup() done; suggestions %s"):format(lsp.state.enabled and "enabled" or "disabled (:Infill enable)")
    )
    for _, wrapped in ipairs(require("infill.keymaps").wrapped()) do
      health.info(
        ("keymap %s%s wraps your earlier mapping (%s): with no suggestion to act on, that mapping runs"):format(
          wrapped.lhs,
          wrapped.mode == "i" and "" or (" (mode " .. wrapped.mode .. ")"),
          wrapped.previous
        )
      )
    end
    M.check_next_edits()
  end

  health.start("infill: server")
  local resolved = lsp.resolve_cmd()
  if not resolved.cmd then
    health.error("server not found: " .. resolved.error, { M.hint("server-not-found") })
  else
    local cmdline = table.concat(resolved.cmd, " ")
    local server_version, err = M.server_version(resolved.cmd)
    if server_version then
      local from = ({ option = "setup({ cmd })", monorepo = "the build in the plugin's repository" })[resolved.source]
      health.ok(("infill-lsp %s (%s, from %s)"):format(server_version, cmdline, from or resolved.source))
    else
      health.error(("`%s --version` failed: %s"):format(cmdline, err or "?"), { M.hint("server-version") })
    end
  end

  local clients = lsp.clients()
  if #clients == 0 then
    health.info("no infill server running (it starts with the first buffer it serves)")
  end
  for _, client in ipairs(clients) do
    local info = lsp.state.server_info[client.id]
    if info then
      health.ok(
        ("server reachable: client %d, %s %s, root %s, %d buffer(s), encoding %s"):format(
          client.id,
          info.name or "infill-lsp",
          info.version or "",
          tostring(client.root_dir or client.config.root_dir),
          vim.tbl_count(client.attached_buffers),
          client.offset_encoding
        )
      )
    else
      health.warn(("client %d has not finished initializing"):format(client.id))
    end
  end

  health.start("infill: provider")
  check_provider(resolved.cmd, clients)
end

return M
