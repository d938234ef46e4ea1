-- What loading the plugin does before setup(): define :Infill and nothing else.
local h = require("helpers")

-- Captured at load time of this spec, before anything below requires the plugin's modules.
local loaded_at_start = {}
for name in pairs(package.loaded) do
  if name == "infill" or name:find("^infill%.") then
    table.insert(loaded_at_start, name)
  end
end

describe("plugin/infill.lua", function()
  it("was loaded from the runtimepath at startup", function()
    h.eq(true, vim.g.loaded_infill)
    h.eq(2, vim.fn.exists(":Infill"))
  end)

  it("requires no module and starts nothing until setup()", function()
    h.eq({}, loaded_at_start)
    h.eq({}, vim.lsp.get_clients())
    h.eq("", vim.fn.maparg("<M-l>", "i"))
    for _, group in ipairs({ "infill", "infill.lsp", "infill.suggestion" }) do
      h.eq(0, vim.fn.exists("#" .. group), "augroup " .. group)
    end
  end)

  it("completes the subcommands", function()
    h.eq(
      { "disable", "enable", "log", "nextedit", "status", "toggle" },
      vim.fn.getcompletion("Infill ", "cmdline")
    )
    h.eq({ "status" }, vim.fn.getcompletion("Infill st", "cmdline"))
  end)

  it(":Infill status before setup() says so", function()
    local out = vim.api.nvim_exec2("Infill status", { output = true }).output
    h.contains(out, "not set up")
  end)

  it("an unknown subcommand is an error naming the valid ones, answered on the command line", function()
    local calls = h.capture_notify()
    local out = vim.api.nvim_exec2("Infill bogus", { output = true }).output
    h.contains(out, 'unknown subcommand "bogus"')
    h.contains(out, "disable, enable, log, nextedit, status, toggle")
    h.eq({}, calls, "an answer to a command, not a notification")
  end)

  it("has vimdoc that builds tags for every API function, option and keymap", function()
    local doc = vim.api.nvim_get_runtime_file("doc/infill.txt", false)[1]
    h.ok(doc, "doc/infill.txt on the runtimepath")
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    vim.fn.writefile(vim.fn.readfile(doc), dir .. "/infill.txt")
    vim.cmd("helptags " .. vim.fn.fnameescape(dir))
    local tags = {}
    for _, line in ipairs(vim.fn.readfile(dir .. "/tags")) do
      tags[line:match("^[^\t]+")] = true
    end
    local infill = require("infill")
    for name, value in pairs(infill) do
      if
        type(value) == "function"
        and not name:find("^_")
        and name ~= "command"
        and name ~= "status_lines"
      then
        h.ok(
          tags["infill." .. name .. "()"]
            or name == "subcommands"
            or name == "open_log"
            or name == "set_enabled",
          "tag infill." .. name .. "()"
        )
      end
    end
    for name in pairs(require("infill.config").defaults) do
      h.ok(tags["infill-option-" .. name], "tag infill-option-" .. name)
    end
    for _, tag in ipairs({
      "infill",
      ":Infill",
      "infill-keymaps",
      "infill-health",
      "InfillSuggestion",
      "infill-popup",
    }) do
      h.ok(tags[tag], "tag " .. tag)
    end
  end)

  it(":Infill log opens the log in a scratch buffer", function()
    vim.cmd("Infill log")
    h.eq("nofile", vim.bo.buftype)
    h.contains(vim.api.nvim_buf_get_lines(0, 0, 1, false)[1], "# infill log")
    vim.cmd("bwipeout!")
  end)
end)
