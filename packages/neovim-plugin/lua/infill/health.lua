---@brief `:checkhealth infill`.

local M = {}

local health = vim.health

--- Hint for a message the server sent.
---@param message string
---@return string
function M.hint(message)
  if message:find("DEEPSEEK_API_KEY", 1, true) then
    return 'export DEEPSEEK_API_KEY in the shell that starts Neovim (or set settings.provider = "sim" to try '
      .. "infill offline), then restart Neovim"
  elseif
    message:find("401")
    or message:lower():find("unauthori[sz]ed")
    or message:lower():find("api key")
  then
    return "the API rejected the key: check DEEPSEEK_API_KEY (https://platform.deepseek.com/api_keys)"
  elseif message:find("not on PATH", 1, true) then
    return require("infill.lsp").install_hint
  elseif message:lower():find("timeout") or message:lower():find("timed out") then
    return "the API did not answer in time: check the network or raise settings.timeoutMs"
  elseif message:find("ignoring", 1, true) then
    return "fix the named setting in setup({ settings = ... })"
  end
  return "see :Infill log"
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
    for _, wrapped in ipairs(require("infill")._wrapped_keymaps()) do
      health.info(
        ("keymap %s wraps your earlier mapping (%s): with no suggestion to act on, that mapping runs"):format(
          wrapped.lhs,
          wrapped.previous
        )
      )
    end
  end

  health.start("infill: server")
  local resolved = lsp.resolve_cmd()
  if not resolved.cmd then
    health.error("server not found: " .. resolved.error, { M.hint(resolved.error) })
  else
    local cmdline = table.concat(resolved.cmd, " ")
    local server_version, err = M.server_version(resolved.cmd)
    if server_version then
      local from = ({ option = "setup({ cmd })", monorepo = "the build in the plugin's repository" })[resolved.source]
      health.ok(("infill-lsp %s (%s, from %s)"):format(server_version, cmdline, from or resolved.source))
    else
      health.error(("`%s --version` failed: %s"):format(cmdline, err or "?"), {
        "check that the command runs in a shell; set `cmd` in setup() to override",
      })
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

  health.start("infill: API")
  local settings = config.options.settings
  local provider = settings.provider or "deepseek"
  local key = vim.env.DEEPSEEK_API_KEY
  if provider == "sim" then
    health.ok('provider "sim": the embedded simulator, no key needed')
  elseif key and vim.trim(key) ~= "" then
    health.ok(("DEEPSEEK_API_KEY is set (%d characters)"):format(#vim.trim(key)))
  elseif config.options.env.DEEPSEEK_API_KEY then
    health.ok("DEEPSEEK_API_KEY is set in setup({ env = ... })")
  else
    health.error("DEEPSEEK_API_KEY is not set: the server answers nothing", { M.hint("DEEPSEEK_API_KEY") })
  end
  local base = settings.baseUrl or config.options.env.INFILL_BASE_URL or vim.env.INFILL_BASE_URL
  health.info("API base URL: " .. (base and base ~= "" and base or "https://api.deepseek.com/beta (default)"))

  local last = lsp.state.last_error
  if last then
    local report = last.type == 1 and health.error or health.warn
    report(
      ("last message (%s): %s"):format(os.date("%H:%M:%S", last.time), last.message),
      { M.hint(last.message) }
    )
  else
    health.ok("no errors reported")
  end
end

return M
