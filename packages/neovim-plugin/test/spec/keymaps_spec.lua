local h = require("helpers")
local infill = require("infill")
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

  it("knows what an unmapped key does", function()
    h.eq("<Esc>l", infill._unmapped_keys("<M-l>"))
    h.eq("<Esc>]", infill._unmapped_keys("<M-]>"))
    h.eq("<Esc><Right>", infill._unmapped_keys("<M-Right>"))
    h.eq("<Esc><C-Right>", infill._unmapped_keys("<M-C-Right>"))
    h.eq("<Esc>\\", infill._unmapped_keys("<M-\\>"))
    h.eq("<C-]>", infill._unmapped_keys("<C-]>"))
  end)
end)
