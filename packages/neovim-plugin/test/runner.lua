-- A small busted-like runner for headless Neovim: describe/it/before_each/after_each, each test in a coroutine
-- so it can hand control back to Neovim's main loop (typed keys, autocmds, LSP messages) while it waits.
-- Results go to $INFILL_TEST_RESULTS as JSON; a TAP-like line per test goes to stderr.

local M = {}

---@class infill.test.Case
---@field name string
---@field fn fun()
---@field before (fun())[]
---@field after (fun())[]

---@type infill.test.Case[]
local cases = {}
---@type { name: string, before: (fun())[], after: (fun())[] }[]
local stack = {}

local SKIP = {}

--- Per-test time limit, in ms.
M.timeout = tonumber(vim.env.INFILL_TEST_TIMEOUT) or 20000
--- How long `wait_for` waits by default, ms: a deadline for something that never comes, not a bound on how fast it
--- comes (a 2-core machine running the other packages' tests at once took more than 5 s for a C++ project's first
--- answer).
M.wait_ms = 15000

local function full_name(name)
  local parts = {}
  for _, s in ipairs(stack) do
    table.insert(parts, s.name)
  end
  table.insert(parts, name)
  return table.concat(parts, " ")
end

function M.describe(name, fn)
  table.insert(stack, { name = name, before = {}, after = {} })
  fn()
  table.remove(stack)
end

function M.before_each(fn)
  table.insert(stack[#stack].before, fn)
end

function M.after_each(fn)
  table.insert(stack[#stack].after, fn)
end

function M.it(name, fn)
  local before, after = {}, {}
  for _, s in ipairs(stack) do
    vim.list_extend(before, s.before)
  end
  for i = #stack, 1, -1 do
    vim.list_extend(after, stack[i].after)
  end
  table.insert(cases, { name = full_name(name), fn = fn, before = before, after = after })
end

--- Skip the running test (e.g. a feature this Neovim doesn't have).
---@param reason string
function M.skip(reason)
  error({ [SKIP] = true, reason = reason }, 0)
end

---@type thread?
local current
---@type fun(ok: boolean, err: any)?
local on_done

--- Resume the running test's coroutine (used by waits); ignored if that test already ended.
---@param co thread
function M.resume(co, ...)
  if co ~= current or coroutine.status(co) ~= "suspended" then
    return
  end
  local ok, res_ok, res_err = coroutine.resume(co, ...)
  if not ok then
    on_done(false, res_ok)
  elseif coroutine.status(co) == "dead" then
    on_done(res_ok, res_err)
  end
end

--- Wait (yielding to the main loop) until `pred()` is truthy; error after `timeout` ms. Checks every 5 ms.
---@param pred fun(): any
---@param timeout? integer Default `M.wait_ms`.
---@param what? string|fun(): string what was awaited, for the error
---@return any value the truthy value of `pred()`
function M.wait_for(pred, timeout, what)
  local co = assert(coroutine.running(), "wait_for must run inside a test")
  local deadline = vim.uv.hrtime() + (timeout or M.wait_ms) * 1e6
  local last_err
  local function check()
    local ok, value = pcall(pred)
    if ok and value then
      M.resume(co, true, value)
    elseif vim.uv.hrtime() > deadline then
      if not ok then
        last_err = value
      end
      M.resume(co, false, last_err)
    else
      if not ok then
        last_err = value
      end
      vim.defer_fn(check, 5)
    end
  end
  vim.schedule(check)
  local ok, value = coroutine.yield()
  if not ok then
    local desc = type(what) == "function" and what() or what or "condition"
    error(
      ("timed out after %d ms waiting for %s%s"):format(
        timeout or M.wait_ms,
        desc,
        value and (": " .. tostring(value)) or ""
      ),
      2
    )
  end
  return value
end

local function run_list(fns)
  for _, fn in ipairs(fns) do
    fn()
  end
end

---@param results table[]
---@param path string
local function finish(results, path)
  local file = assert(io.open(path, "w"))
  file:write(vim.json.encode({
    done = true,
    nvim = tostring(vim.version()),
    results = results,
  }))
  file:close()
  vim.cmd("qall!")
end

--- Load `spec` (a Lua file calling describe/it) and run its tests one after another.
---@param spec string
---@param out string results file
function M.run(spec, out)
  _G.describe, _G.it, _G.before_each, _G.after_each = M.describe, M.it, M.before_each, M.after_each
  local results = {}
  local load_ok, load_err = xpcall(dofile, debug.traceback, spec)
  if not load_ok then
    table.insert(results, { name = "load " .. spec, status = "fail", error = tostring(load_err) })
    return finish(results, out)
  end
  local filter = vim.env.INFILL_TEST_FILTER
  local i = 0
  local function next_case()
    i = i + 1
    local case = cases[i]
    if not case then
      return finish(results, out)
    end
    if filter and filter ~= "" and not case.name:find(filter, 1, true) then
      return vim.schedule(next_case)
    end
    local started = vim.uv.hrtime()
    local watchdog = assert(vim.uv.new_timer())
    local co = coroutine.create(function()
      return xpcall(function()
        run_list(case.before)
        local ok, err = xpcall(case.fn, debug.traceback)
        -- after_each runs even when the test failed; the test's error wins.
        local after_ok, after_err = xpcall(run_list, debug.traceback, case.after)
        if not ok then
          error(err, 0)
        elseif not after_ok then
          error("after_each: " .. tostring(after_err), 0)
        end
      end, function(err)
        if type(err) == "table" and err[SKIP] then
          return err
        end
        return type(err) == "string" and err:find("\nstack traceback:") and err
          or debug.traceback(tostring(err), 2)
      end)
    end)
    current = co
    on_done = function(ok, err)
      if current ~= co then
        return
      end
      current = nil
      watchdog:stop()
      watchdog:close()
      local ms = math.floor((vim.uv.hrtime() - started) / 1e6)
      local result = { name = case.name, status = ok and "pass" or "fail", ms = ms }
      if not ok and type(err) == "table" and err[SKIP] then
        result.status, result.reason = "skip", err.reason
      elseif not ok then
        result.error = tostring(err)
      end
      table.insert(results, result)
      io.stderr:write(("%s %s (%d ms)\n"):format(result.status, case.name, ms))
      vim.schedule(next_case)
    end
    watchdog:start(
      M.timeout,
      0,
      vim.schedule_wrap(function()
        if current == co then
          on_done(false, ("test timed out after %d ms"):format(M.timeout))
        end
      end)
    )
    M.resume(co)
  end
  next_case()
end

return M
