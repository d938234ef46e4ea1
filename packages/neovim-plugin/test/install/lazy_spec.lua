-- The README's lazy.nvim spec, taken the way lazy.nvim takes it, for real but without lazy.nvim itself (it cannot be
-- downloaded here): the repository cloned from a URL ($INFILL_TEST_REPO_URL, a file:// URL of this repository's
-- committed state standing in for GitHub), the spec's `build` run by the shell in the clone, then the spec's
-- `config(plugin, opts)`. Neovim starts without this checkout's plugin on the runtimepath ($INFILL_TEST_BARE), so
-- everything the plugin does here comes from the clone: its Lua, its help and the server it built.
-- Several Neovim versions share one clone ($INFILL_TEST_CLONE): the first run clones and builds.
local h = require("helpers")

local url = assert(vim.env.INFILL_TEST_REPO_URL, "INFILL_TEST_REPO_URL is not set")
local clone = vim.fs.normalize(assert(vim.env.INFILL_TEST_CLONE, "INFILL_TEST_CLONE is not set"))
local server = clone .. "/packages/lsp-server/dist/infill-lsp.js"
--- Upper bound of the build (pnpm install and build on a loaded machine), in ms.
local BUILD_TIMEOUT_MS = 240000

--- Run `cmd` to its end without blocking Neovim (the test waits on it).
---@param cmd string[]
---@param opts? vim.SystemOpts
---@param timeout integer ms
---@return vim.SystemCompleted
local function system(cmd, opts, timeout)
  local result
  vim.system(cmd, vim.tbl_extend("force", { text = true }, opts or {}), function(completed)
    result = completed
  end)
  return h.wait_for(function()
    return result
  end, timeout, table.concat(cmd, " "))
end

local function read(path)
  return table.concat(vim.fn.readfile(path), "\n")
end

--- The lazy.nvim spec of the clone's plugin README, evaluated as lazy.nvim would load it from a user's config.
local function readme_spec()
  local block = read(clone .. "/packages/neovim-plugin/README.md"):match("```lua\n(%{\n  url = .-\n%})\n```")
  h.ok(block, "a lazy.nvim spec in the plugin's README")
  return assert(loadstring("return " .. block))()
end

local spec

describe("the lazy.nvim spec", function()
  it("clones from a repository URL", function()
    if vim.uv.fs_stat(clone .. "/.git") then
      h.skip("cloned by an earlier run")
    end
    local cloned = system({ "git", "clone", "--quiet", url, clone }, {}, 60000)
    h.eq(0, cloned.code, cloned.stderr)
  end)

  it("installs from this repository's URL (the root package.json's repository.url)", function()
    spec = readme_spec()
    local repository = vim.json.decode(read(clone .. "/package.json")).repository.url
    h.eq(repository:gsub("^git%+", ""):gsub("%.git$", ""), spec.url)
    h.eq("infill", spec.name)
  end)

  it("builds the server with its `build` command, run by the shell in the clone as lazy.nvim does", function()
    if vim.uv.fs_stat(server) then
      h.skip("built by an earlier run")
    end
    h.eq("string", type(spec.build))
    -- lazy.nvim: `$SHELL -c build` (`/c` for cmd.exe), in the plugin's folder.
    local shell = vim.env.SHELL or vim.o.shell
    local built = system({ shell, "-c", spec.build }, { cwd = clone }, BUILD_TIMEOUT_MS)
    h.eq(0, built.code, built.stdout .. built.stderr)
    h.ok(vim.uv.fs_stat(server), server .. " after the build")
  end)

  it("config puts packages/neovim-plugin on the runtimepath, loads :Infill and sets the plugin up", function()
    h.eq(0, vim.fn.exists(":Infill"), "nothing of the plugin before config")
    h.capture_notify()
    local opts =
      vim.tbl_deep_extend("force", spec.opts or {}, { settings = { provider = "sim", debounceMs = 10 } })
    spec.config({ name = spec.name, url = spec.url, dir = clone }, opts)
    h.eq(2, vim.fn.exists(":Infill"))
    local source = debug.getinfo(require("infill").setup, "S").source
    h.ok(vim.startswith(vim.fs.normalize(source:sub(2)), clone .. "/packages/neovim-plugin/lua/"), source)
    h.ok(require("infill.lsp").state.setup_done, "setup() ran")
  end)

  it("finds the server it built, and :checkhealth infill says so", function()
    local resolved = require("infill.lsp").resolve_cmd()
    h.eq("monorepo", resolved.source, resolved.error)
    h.eq(server, vim.fs.normalize(resolved.cmd[3]))
    vim.cmd("checkhealth infill")
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
    vim.cmd("bwipeout!")
    local version = vim.json.decode(read(clone .. "/packages/lsp-server/package.json")).version
    h.contains(text, "infill-lsp " .. version .. " (")
    h.contains(text, "from the build in the plugin's repository")
  end)

  it(":help infill opens the plugin's help", function()
    vim.cmd("help infill")
    h.eq(clone .. "/packages/neovim-plugin/doc/infill.txt", vim.fs.normalize(vim.api.nvim_buf_get_name(0)))
    vim.cmd("helpclose")
  end)

  it("shows ghost text from the server it built (provider sim)", function()
    h.edit(h.project("lazy") .. "/add.js", h.ADD_SUB, { 6, 2 })
    h.wait_for(function()
      local client = require("infill.lsp").get_client(0)
      return client and client.initialized
    end, 10000, "the infill client to attach and initialize")
    h.append_and_wait_ghost("r", "eturn a + b;", 10000)
    h.escape()
  end)
end)
