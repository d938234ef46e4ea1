---@brief Calling a function at most once per interval, without losing the last call.

local M = {}

---@class infill.Throttle
---@field call fun() Run the function now if it has not run for `interval` ms, else once when that time is up.
---@field cancel fun() Drop a run that waits for its time.
---@field idle fun(): boolean Would a call run at once (no run within the interval, none waiting)?

--- A throttled `fn`: the first call runs at once; calls within `interval` ms of the last run are folded into one
--- run when the interval is over (so the latest state is always drawn). `fn` runs in the main loop.
---@param interval integer ms
---@param fn fun()
---@return infill.Throttle
function M.new(interval, fn)
  local last = -math.huge
  ---@type uv.uv_timer_t?
  local timer
  local function run()
    last = vim.uv.hrtime() / 1e6
    fn()
  end
  local function remaining()
    return last + interval - vim.uv.hrtime() / 1e6
  end
  return {
    call = function()
      local wait = remaining()
      if wait <= 0 then
        if timer then
          timer:stop()
        end
        return run()
      end
      timer = timer or assert(vim.uv.new_timer())
      if not timer:is_active() then
        -- Timers count whole ms from the loop's cached time, which may lag: from now, one more ms, so that the
        -- interval really passes.
        vim.uv.update_time()
        timer:start(math.ceil(wait) + 1, 0, vim.schedule_wrap(run))
      end
    end,
    cancel = function()
      if timer then
        timer:stop()
      end
    end,
    idle = function()
      return remaining() <= 0 and not (timer and timer:is_active())
    end,
  }
end

return M
