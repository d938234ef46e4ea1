-- The README's vim.pack snippet (Neovim 0.12+), run as a user's config runs it: vim.pack clones the repository and
-- the snippet's PackChanged hook builds the server. Two things differ from a user's machine: the repository comes
-- from $INFILL_TEST_REPO_URL (a file:// URL of this repository's committed state, under the name vim.pack would
-- give the README's URL), and vim.pack does not ask for confirmation. Neovim starts without this checkout's plugin
-- on the runtimepath ($INFILL_TEST_BARE).
local h = require("helpers")

local url = assert(vim.env.INFILL_TEST_REPO_URL, "INFILL_TEST_REPO_URL is not set")
--- This checkout's packages/neovim-plugin, whose README the snippet comes from.
local plugin_root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h:h")

local function read(path)
  return table.concat(vim.fn.readfile(path), "\n")
end

describe("the vim.pack snippet", function()
  it("installs, builds and sets up the plugin from the repository", function()
    if not vim.pack then
      h.skip("no vim.pack before Neovim 0.12")
    end
    local readme = read(plugin_root .. "/README.md")
    local snippet = readme:match('```lua\n(vim%.api%.nvim_create_autocmd%("PackChanged".-)```')
    h.ok(snippet, "a vim.pack snippet in the plugin's README")
    local add = vim.pack.add
    local added
    vim.pack.add = function(specs, opts)
      added = vim.deepcopy(specs)
      local redirected = vim.tbl_map(function(spec)
        local src = type(spec) == "string" and spec or spec.src
        return { src = url, name = src:match("([^/]+)$"):gsub("%.git$", "") }
      end, specs)
      return add(redirected, vim.tbl_extend("force", opts or {}, { confirm = false }))
    end
    h.capture_notify()
    -- The build in the hook blocks this Neovim until it ends, as it does in a user's.
    assert(loadstring(snippet))()
    vim.pack.add = add

    local repository = vim.json.decode(read(plugin_root .. "/../../package.json")).repository.url
    h.eq({ (repository:gsub("^git%+", ""):gsub("%.git$", "")) }, added)
    local dir = vim.fs.normalize(vim.fn.stdpath("data") .. "/site/pack/core/opt/infill")
    h.ok(vim.uv.fs_stat(dir .. "/packages/lsp-server/dist/infill-lsp.js"), "the hook built the server")
    h.eq(2, vim.fn.exists(":Infill"))
    local resolved = require("infill.lsp").resolve_cmd()
    h.eq("monorepo", resolved.source, resolved.error)
    h.eq(dir .. "/packages/lsp-server/dist/infill-lsp.js", vim.fs.normalize(resolved.cmd[3]))
  end)
end)
