-- Test init for `nvim --headless -u test/init.lua -i NONE -n`: the plugin on the runtimepath as a package manager
-- would put it (so plugin/infill.lua loads at startup; not with $INFILL_TEST_BARE), test helpers on package.path,
-- then the spec in $INFILL_TEST_SPEC runs once Neovim has started; results go to $INFILL_TEST_RESULTS.
local test_dir = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
local root = vim.fn.fnamemodify(test_dir, ":h")
-- The install specs bring the plugin from a clone of the repository instead.
if not vim.env.INFILL_TEST_BARE then
  vim.opt.runtimepath:prepend(root)
end
package.path = table.concat({ test_dir .. "/?.lua", package.path }, ";")
vim.opt.swapfile = false
-- No remote-plugin providers: `has("python3")` in the python ftplugin would otherwise run the machine's python3 to
-- look for pynvim (20 s through pyenv shims).
for _, provider in ipairs({ "python3", "node", "perl", "ruby" }) do
  vim.g["loaded_" .. provider .. "_provider"] = 0
end
vim.opt.shortmess:append("I")

local spec = assert(vim.env.INFILL_TEST_SPEC, "INFILL_TEST_SPEC is not set")
local out = assert(vim.env.INFILL_TEST_RESULTS, "INFILL_TEST_RESULTS is not set")

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      require("runner").run(spec, out)
    end)
  end,
})
