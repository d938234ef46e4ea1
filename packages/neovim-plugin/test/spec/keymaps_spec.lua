local h = require("helpers")
local infill = require("infill")
local keymaps = require("infill.keymaps")
local lsp = require("infill.lsp")
local suggestion = require("infill.suggestion")

local function desc(lhs)
  local map = vim.fn.maparg(lhs, "i", false, true)
  return map.desc
end

describe("keymaps", function()
  it("has non-clashing insert-mode defaults (no <Tab>)", function()
    infill.setup()
    h.eq("infill: accept suggestion", desc("<M-l>"))
    h.eq("infill: accept next word", desc("<M-Right>"))
    h.eq("infill: accept next line", desc("<M-C-Right>"))
    h.eq("infill: next suggestion", desc("<M-]>"))
    h.eq("infill: previous suggestion", desc("<M-[>"))
    h.eq("infill: dismiss suggestion", desc("<C-]>"))
    h.eq("infill: suggest now", desc("<M-\\>"))
    h.ok(not (desc("<Tab>") or ""):find("infill"), "<Tab> is left alone")
  end)

  it("can be overridden or turned off one by one, and setup() again replaces them", function()
    infill.setup({ keymaps = { accept = "<C-l>", dismiss = false } })
    h.eq("infill: accept suggestion", desc("<C-l>"))
    h.eq("", vim.fn.maparg("<M-l>", "i"))
    h.eq("", vim.fn.maparg("<C-]>", "i"))
    h.eq("infill: next suggestion", desc("<M-]>"))
  end)

  it("keymaps = false sets none", function()
    infill.setup({ keymaps = false })
    for _, lhs in ipairs({ "<C-l>", "<M-l>", "<M-]>", "<M-[>", "<C-]>", "<M-Right>", "<M-C-Right>", "<M-\\>" }) do
      h.eq("", vim.fn.maparg(lhs, "i"), lhs)
    end
  end)

  it("with nothing to accept, the key keeps its own meaning", function()
    infill.setup()
    local bufnr = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_set_current_buf(bufnr)
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, { "abc" })
    vim.cmd("inoreabbrev <buffer> teh the")
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    -- <C-]> expands an abbreviation when no suggestion is shown.
    h.input(" teh<C-]>", function()
      return vim.api.nvim_get_current_line() == "abc the"
    end, "the abbreviation expanded by <C-]>")
    -- Unmapped, <M-l> in insert mode is <Esc>l.
    h.input("<M-l>", function()
      return vim.api.nvim_get_mode().mode == "n"
    end, "normal mode after <M-l> with nothing to accept")
    h.eq("abc the", vim.api.nvim_get_current_line())
    h.eq({ 1, 6 }, vim.api.nvim_win_get_cursor(0), "<Esc> then l: the cursor on the last character")
    h.eq(false, suggestion.is_visible())
  end)

  it("with nothing to act on, runs the mapping the user had on the key", function()
    infill.setup({ keymaps = false })
    local called = 0
    vim.keymap.set("i", "<M-l>", function()
      called = called + 1
    end, { desc = "user accept" })
    vim.keymap.set("i", "<M-]>", function()
      return "<lt>next>"
    end, { expr = true, desc = "user next" })
    -- Recursive, and the result starts with the key itself: that part is not mapped again, as in Vim.
    vim.cmd([[imap <expr> <C-]> "\<C-]>."]])
    local script = vim.fn.tempname() .. ".vim"
    vim.fn.writefile({
      "function! s:Prev() abort",
      "  return '<prev>'",
      "endfunction",
      "inoremap <expr> <M-[> <SID>Prev()",
    }, script)
    vim.cmd.source(vim.fn.fnameescape(script))
    infill.setup()
    infill.setup() -- again: the previous mapping is still the user's, not the plugin's first one
    h.eq("infill: accept suggestion", desc("<M-l>"))

    local bufnr = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_set_current_buf(bufnr)
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, { "abc" })
    vim.cmd("inoreabbrev <buffer> teh the")
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    h.input("<M-l>", function()
      return called == 1
    end, "the user's <M-l> callback")
    h.eq("i", vim.api.nvim_get_mode().mode, "still in insert mode")
    h.input("<M-]>", function()
      return vim.api.nvim_get_current_line() == "abc<next>"
    end, "the user's <expr> callback mapping")
    h.input("<M-[>", function()
      return vim.api.nvim_get_current_line() == "abc<next><prev>"
    end, "the user's <expr> <SID> mapping")
    h.input(" teh<C-]>", function()
      return vim.api.nvim_get_current_line() == "abc<next><prev> the."
    end, "the user's recursive <C-]> mapping, expanding the abbreviation")

    -- With a suggestion shown the plugin acts, and the user's mapping does not run.
    local line = vim.api.nvim_get_current_line()
    local col = vim.api.nvim_win_get_cursor(0)[2]
    suggestion.state.bufnr = bufnr
    suggestion.state.items = {
      { row = 0, col = col, prefix = line, rest = "", text = "!", replace = 0, client_id = 0 },
    }
    suggestion.state.index = 1
    suggestion.refresh()
    h.input("<M-l>", function()
      return vim.api.nvim_get_current_line() == line .. "!"
    end, "the suggestion accepted")
    h.eq(1, called)

    -- Turned off, the keys are the user's again.
    infill.disable()
    h.input("<M-l>", function()
      return called == 2
    end, "the user's <M-l> while infill is disabled")
    infill.enable()
    h.escape()

    -- Teardown puts the user's mappings back.
    infill.setup({ keymaps = false })
    h.eq("user accept", desc("<M-l>"))
    h.eq("user next", desc("<M-]>"))
    h.eq([["\<C-]>."]], vim.fn.maparg("<C-]>", "i"))
    h.contains(vim.fn.maparg("<M-[>", "i"), "Prev()")
    for _, lhs in ipairs({ "<M-l>", "<M-]>", "<C-]>", "<M-[>" }) do
      vim.keymap.del("i", lhs)
    end
    vim.cmd("bwipeout! " .. bufnr)
  end)

  it(
    "wraps the global mapping even when a buffer-local one hides it, and leaves one set over it since",
    function()
      vim.keymap.set("i", "<M-l>", "global", { desc = "user global" })
      local bufnr = vim.api.nvim_create_buf(true, false)
      vim.api.nvim_set_current_buf(bufnr)
      vim.keymap.set("i", "<M-l>", "local", { buffer = bufnr, desc = "user local" })
      infill.setup()
      h.eq({ { lhs = "<M-l>", mode = "i", previous = "user global" } }, keymaps.wrapped())
      h.eq("user local", desc("<M-l>"), "the buffer-local mapping is untouched")
      vim.cmd("bwipeout! " .. bufnr)
      h.eq("infill: accept suggestion", desc("<M-l>"))
      vim.keymap.set("i", "<M-]>", "mine", { desc = "set after setup" })
      infill.setup({ keymaps = false })
      h.eq("user global", desc("<M-l>"))
      h.eq("set after setup", desc("<M-]>"))
      vim.keymap.del("i", "<M-l>")
      vim.keymap.del("i", "<M-]>")
      h.eq({}, keymaps.wrapped())
    end
  )

  -- A buffer in insert mode with a suggestion shown that accepting cannot insert (the buffer is not modifiable).
  local function failing_accept()
    local bufnr = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_set_current_buf(bufnr)
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, { "abc" })
    h.input("A", function()
      return vim.api.nvim_get_mode().mode == "i"
    end)
    local function show()
      suggestion.state.bufnr = bufnr
      suggestion.state.items = {
        { row = 0, col = 3, prefix = "abc", rest = "", text = "def", replace = 0, client_id = 0 },
      }
      suggestion.state.index = 1
      suggestion.refresh()
      h.eq(true, suggestion.is_visible())
    end
    show()
    vim.bo[bufnr].modifiable = false -- nvim_buf_set_text fails
    return bufnr, show
  end

  local function cleanup(bufnr)
    vim.bo[bufnr].modifiable = true
    h.escape()
    vim.cmd("bwipeout! " .. bufnr)
  end

  it(
    "with notify = false, an action that fails notifies nothing but is logged and kept for :checkhealth",
    function()
      local notify = vim.notify
      local calls = h.capture_notify()
      lsp.state.notified = {}
      lsp.state.last_error = nil
      infill.setup({ notify = false })
      local bufnr = failing_accept()
      h.input("<M-l>", function()
        return lsp.state.last_error ~= nil
      end, "the error recorded")
      h.contains(lsp.state.last_error.message, "infill: accept failed")
      h.eq("action-error", lsp.state.last_error.kind)
      h.contains(lsp.state.log[#lsp.state.log], "[ERROR] infill: accept failed")
      h.eq(false, suggestion.is_visible(), "the suggestion is dropped")
      h.eq({}, calls, "vim.notify calls")
      cleanup(bufnr)
      vim.notify = notify
    end
  )

  it("an action that fails is reported once, drops the suggestion, and the key raises no error", function()
    local notify = vim.notify
    local calls = h.capture_notify()
    lsp.state.notified = {}
    infill.setup()
    local bufnr, show = failing_accept()
    h.input("<M-l>", function()
      return #calls > 0
    end, "the error reported")
    h.eq(1, #calls)
    h.eq(vim.log.levels.ERROR, calls[1].level)
    h.contains(calls[1].msg, "infill: accept failed")
    h.contains(calls[1].msg, "modifiable")
    h.eq(false, suggestion.is_visible(), "the suggestion is dropped")
    h.eq({}, suggestion.state.items)
    h.eq("i", vim.api.nvim_get_mode().mode, "the key's own meaning is not run after a failure")
    h.eq({ "abc" }, vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
    h.contains(lsp.state.last_error.message, "accept failed")

    show()
    h.input("<M-l>", function()
      return not suggestion.is_visible()
    end, "the suggestion dropped again")
    h.eq(1, #calls, "the same error is not shown twice")

    cleanup(bufnr)
    vim.notify = notify
  end)

  it(
    "messages are shown from two places: lsp.report() (honours `notify`) and the answers of :Infill",
    function()
      -- A third caller would show a message nobody asked for past the `notify` option.
      local callers = {}
      local dir = lsp.plugin_root() .. "/lua/infill"
      for name in vim.fs.dir(dir) do
        local text = table.concat(vim.fn.readfile(dir .. "/" .. name), "\n")
        for _, call in ipairs({ "vim.notify(", "vim.notify_once(", "nvim_echo(", "print(", "nvim_err_write" }) do
          local from = 1
          while true do
            local at = text:find(call, from, true)
            if not at then
              break
            end
            table.insert(callers, name .. ": " .. call)
            from = at + 1
          end
        end
      end
      table.sort(callers)
      h.eq({ "init.lua: nvim_echo(", "lsp.lua: vim.notify(" }, callers)
    end
  )

  it("knows what an unmapped key does", function()
    h.eq("<Esc>l", keymaps.unmapped_keys("<M-l>"))
    h.eq("<Esc>]", keymaps.unmapped_keys("<M-]>"))
    h.eq("<Esc><Right>", keymaps.unmapped_keys("<M-Right>"))
    h.eq("<Esc><C-Right>", keymaps.unmapped_keys("<M-C-Right>"))
    h.eq("<Esc>\\", keymaps.unmapped_keys("<M-\\>"))
    h.eq("<C-]>", keymaps.unmapped_keys("<C-]>"))
  end)
end)
