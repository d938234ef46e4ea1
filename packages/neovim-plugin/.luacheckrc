-- luacheck: the plugin runs inside Neovim (LuaJIT, Lua 5.1 semantics), with `vim` as its one global.
std = "luajit"
globals = { "vim" }
-- Line length is stylua's business (column_width in .stylua.toml); long strings and comments may exceed it.
max_line_length = false
codes = true
exclude_files = { "node_modules" }

files["test"] = {
  read_globals = { "describe", "it", "before_each", "after_each", "eq", "neq", "ok" },
}
