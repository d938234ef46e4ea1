-- At most one run per interval, and the last call is never lost.
local h = require("helpers")
local throttle = require("infill.throttle")

local function now()
  return vim.uv.hrtime() / 1e6
end

describe("throttle", function()
  it("runs the first call at once and folds the calls within the interval into one run at its end", function()
    local runs = {}
    local t0 = now()
    local t = throttle.new(30, function()
      table.insert(runs, now() - t0)
    end)
    t.call()
    h.eq(1, #runs, "the first call runs at once")
    for _ = 1, 5 do
      t.call()
    end
    h.eq(1, #runs, "calls within the interval wait")
    h.wait_for(function()
      return #runs == 2
    end, 1000, "the folded run")
    -- Stamped a few µs after the throttle reads its clock: to the 0.1 ms.
    h.ok(runs[2] - runs[1] >= 29.9, ("runs %.1f ms apart"):format(runs[2] - runs[1]))
    vim.wait(60)
    h.eq(2, #runs, "one run for the five calls")
    t.call()
    h.eq(3, #runs, "a call after the interval runs at once")
  end)

  it("cancel() drops the run waiting for its time", function()
    local runs = 0
    local t = throttle.new(20, function()
      runs = runs + 1
    end)
    t.call()
    t.call()
    t.cancel()
    vim.wait(60)
    h.eq(1, runs)
  end)
end)
