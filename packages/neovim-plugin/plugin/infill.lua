-- infill: only the :Infill command is defined at startup; everything else waits for require("infill").setup().
if vim.g.loaded_infill then
  return
end
vim.g.loaded_infill = true

local subcommands = { "disable", "enable", "log", "nextedit", "status", "toggle" }

vim.api.nvim_create_user_command("Infill", function(args)
  require("infill").command(args)
end, {
  nargs = "?",
  desc = "infill: status | enable | disable | toggle | log | nextedit",
  complete = function(arglead)
    return vim.tbl_filter(function(name)
      return vim.startswith(name, arglead)
    end, subcommands)
  end,
})
