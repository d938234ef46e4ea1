local h = require("helpers")
local config = require("infill.config")
local lsp = require("infill.lsp")

local function executable(dir, name, body)
  vim.fn.mkdir(dir, "p")
  local path = dir .. "/" .. name
  vim.fn.writefile({ "#!/bin/sh", body }, path)
  vim.fn.setfperm(path, "rwxr-xr-x")
  return path
end

--- Make `lsp.monorepo_server()` name a fresh file, as if the server had been built; returns its path.
local function pretend_built()
  local script = vim.fn.tempname() .. ".js"
  vim.fn.writefile({ "" }, script)
  lsp.monorepo_server = function()
    return script
  end
  return script
end

describe("lsp", function()
  local saved_path = vim.env.PATH
  local saved_monorepo = lsp.monorepo_server
  before_each(function()
    config.setup()
    lsp.state.notified = {}
    lsp.state.last_error = nil
  end)
  after_each(function()
    vim.env.PATH = saved_path
    lsp.monorepo_server = saved_monorepo
  end)

  describe("resolve_cmd", function()
    it("uses opts.cmd as given, list or function", function()
      h.eq(
        { cmd = { "my-lsp", "--stdio" }, source = "option" },
        lsp.resolve_cmd({ cmd = { "my-lsp", "--stdio" } })
      )
      h.eq(
        { cmd = { "x" }, source = "option" },
        lsp.resolve_cmd({
          cmd = function()
            return { "x" }
          end,
        })
      )
      local bad = lsp.resolve_cmd({
        cmd = function()
          return nil
        end,
      })
      h.eq("none", bad.source)
    end)

    it("prefers the server built next to the plugin, run by node, over infill-lsp on PATH", function()
      h.eq(vim.fs.normalize(lsp.plugin_root() .. "/../lsp-server/dist/infill-lsp.js"), lsp.monorepo_server())
      h.ok(
        vim.endswith(lsp.monorepo_server(), "packages/lsp-server/dist/infill-lsp.js"),
        lsp.monorepo_server()
      )
      local script = pretend_built()
      local dir = vim.fn.tempname()
      executable(dir, "infill-lsp", "echo 1.2.3")
      vim.env.PATH = dir .. ":" .. saved_path
      local resolved = lsp.resolve_cmd(config.options)
      h.eq("monorepo", resolved.source)
      h.eq({ vim.fn.exepath("node"), "--max-semi-space-size=1", script, "--stdio" }, resolved.cmd)
    end)

    it("falls back to infill-lsp on PATH when the plugin's repository has no built server", function()
      lsp.monorepo_server = function()
        return "/nonexistent/infill-lsp.js"
      end
      local dir = vim.fn.tempname()
      local exe = executable(dir, "infill-lsp", "echo 1.2.3")
      vim.env.PATH = dir .. ":" .. saved_path
      h.eq({ cmd = { exe, "--stdio" }, source = "PATH" }, lsp.resolve_cmd(config.options))
    end)

    it("falls back to infill-lsp on PATH when there is no node to run the built one", function()
      pretend_built()
      local dir = vim.fn.tempname()
      local exe = executable(dir, "infill-lsp", "echo 1.2.3")
      vim.env.PATH = dir
      h.eq({ cmd = { exe, "--stdio" }, source = "PATH" }, lsp.resolve_cmd(config.options))
      vim.env.PATH = vim.fn.tempname()
      h.contains(lsp.resolve_cmd(config.options).error, "no `node` on PATH")
    end)

    it("says how to get the server when there is none", function()
      lsp.monorepo_server = function()
        return "/nonexistent/infill-lsp.js"
      end
      vim.env.PATH = vim.fn.tempname()
      local resolved = lsp.resolve_cmd(config.options)
      h.eq("none", resolved.source)
      h.contains(resolved.error, "npm install --global @infill/lsp-server")
      h.contains(resolved.error, ":checkhealth infill")
    end)
  end)

  describe("root", function()
    local saved_cwd
    before_each(function()
      saved_cwd = vim.fn.getcwd()
    end)
    after_each(function()
      vim.cmd.cd(vim.fn.fnameescape(saved_cwd))
    end)

    --- A fresh folder holding `files` (paths relative to it; a name ending in "/" is a folder); its real path.
    local function tree(files)
      local dir = vim.fn.tempname()
      for _, file in ipairs(files) do
        local path = dir .. "/" .. file
        if file:sub(-1) == "/" then
          vim.fn.mkdir(path, "p")
        else
          vim.fn.mkdir(vim.fs.dirname(path), "p")
          vim.fn.writefile({}, path)
        end
      end
      return assert(vim.uv.fs_realpath(dir))
    end

    local function root_of(path)
      return lsp.root(vim.fn.bufadd(path))
    end

    it("is the repository, even when a project file is nearer (a monorepo's packages share it)", function()
      local dir = tree({ ".git/", "package.json", "packages/a/package.json", "packages/a/src/x.ts" })
      h.eq(dir, root_of(dir .. "/packages/a/src/x.ts"))
    end)

    it("is the nearest project file's folder outside version control, any project file alike", function()
      local dir =
        tree({ "pyproject.toml", "pkg/mod.py", "web/tsconfig.json", "web/src/package.json", "web/src/a.ts" })
      h.eq(dir, root_of(dir .. "/pkg/mod.py"))
      h.eq(dir .. "/web/src", root_of(dir .. "/web/src/a.ts"))
    end)

    it(
      "knows the project files of Java, C#, PHP, Ruby and C outside version control, C#'s by pattern",
      function()
        local dir = tree({
          "maven/pom.xml",
          "maven/src/main/java/com/acme/A.java",
          "dotnet/Shop.csproj",
          "dotnet/Models/Product.cs",
          "php/composer.json",
          "php/src/Http/Controller.php",
          "ruby/Gemfile",
          "ruby/lib/shop/cart.rb",
          "cpp/compile_flags.txt",
          "cpp/src/main.cpp",
          "cs.csproj.bak/Loose.cs",
        })
        h.eq(dir .. "/maven", root_of(dir .. "/maven/src/main/java/com/acme/A.java"))
        h.eq(dir .. "/dotnet", root_of(dir .. "/dotnet/Models/Product.cs"))
        h.eq(dir .. "/php", root_of(dir .. "/php/src/Http/Controller.php"))
        h.eq(dir .. "/ruby", root_of(dir .. "/ruby/lib/shop/cart.rb"))
        h.eq(dir .. "/cpp", root_of(dir .. "/cpp/src/main.cpp"))
        -- `*.csproj` is the whole name: a folder named `cs.csproj.bak` is no project.
        h.eq(dir .. "/cs.csproj.bak", root_of(dir .. "/cs.csproj.bak/Loose.cs"))
      end
    )

    it("follows the order of a flat root_markers list", function()
      local dir = tree({ ".git/", "sub/Makefile", "sub/f.c" })
      config.setup({ root_markers = { "Makefile", ".git" } })
      h.eq(dir .. "/sub", root_of(dir .. "/sub/f.c"))
      config.setup({ root_markers = { ".git", "Makefile" } })
      h.eq(dir, root_of(dir .. "/sub/f.c"))
    end)

    it("without a marker: the working directory if it holds the file, else the file's folder", function()
      local dir = tree({ "loose/deep/f.lua", "elsewhere/" })
      vim.cmd.cd(vim.fn.fnameescape(dir))
      h.eq(dir, root_of(dir .. "/loose/deep/f.lua"))
      vim.cmd.cd(vim.fn.fnameescape(dir .. "/elsewhere"))
      h.eq(dir .. "/loose/deep", root_of(dir .. "/loose/deep/f.lua"))
    end)
  end)

  describe("should_serve", function()
    local function buf(ft, buftype)
      local b = vim.api.nvim_create_buf(true, false)
      vim.bo[b].buftype = buftype or ""
      vim.bo[b].filetype = ft
      return b
    end

    it("serves normal buffers of any filetype by default, not commit messages or help", function()
      h.eq(true, lsp.should_serve(buf("lua")))
      h.eq(true, lsp.should_serve(buf("typescript")))
      h.eq(false, lsp.should_serve(buf("gitcommit")))
      h.eq(false, lsp.should_serve(buf("help")))
      h.eq(false, lsp.should_serve(buf("lua", "nofile")))
      h.eq(false, lsp.should_serve(buf("lua", "prompt")))
      h.eq(true, lsp.should_serve(buf("lua", "acwrite")))
      h.eq(false, lsp.should_serve(buf("")), "no filetype")
    end)

    it("follows the filetypes option: booleans, functions, '*' and compound filetypes", function()
      config.setup({
        filetypes = {
          ["*"] = false,
          python = true,
          javascript = true,
          markdown = function(b)
            return vim.b[b].ok == true
          end,
        },
      })
      h.eq(false, lsp.should_serve(buf("lua")))
      h.eq(true, lsp.should_serve(buf("python")))
      h.eq(true, lsp.should_serve(buf("javascript.jsx")))
      local md = buf("markdown")
      h.eq(false, lsp.should_serve(md))
      vim.b[md].ok = true
      h.eq(true, lsp.should_serve(md))
    end)
  end)

  describe("messages", function()
    local show = function(type, message)
      lsp
        .client_config({ "x" }).handlers
        ["window/showMessage"](nil, { type = type, message = message }, { client_id = 1 })
    end

    it("reach vim.notify once per session, and the last error is kept", function()
      local calls = h.capture_notify()
      show(2, "infill: DEEPSEEK_API_KEY is not set")
      show(2, "infill: DEEPSEEK_API_KEY is not set")
      show(2, "infill: DEEPSEEK_API_KEY is not set")
      h.eq({ { msg = "infill: DEEPSEEK_API_KEY is not set", level = vim.log.levels.WARN } }, calls)
      show(1, "infill: the API rejected the key (401)")
      h.eq(2, #calls)
      h.eq(vim.log.levels.ERROR, calls[2].level)
      h.eq("infill: the API rejected the key (401)", lsp.state.last_error.message)
      show(4, "debug chatter")
      h.eq(2, #calls, "log-level messages are not notified")
      h.contains(table.concat(lsp.state.log, "\n"), "debug chatter")
    end)

    it("notify = false keeps them out of vim.notify", function()
      config.setup({ notify = false })
      local calls = h.capture_notify()
      show(1, "infill: quiet please")
      h.eq({}, calls)
      h.eq("infill: quiet please", lsp.state.last_error.message)
    end)
  end)

  describe("settings", function()
    it("answers workspace/configuration for the infill section, with the on/off switch folded in", function()
      config.setup({ settings = { provider = "sim", debounceMs = 50 } })
      local handler = lsp.client_config({ "x" }).handlers["workspace/configuration"]
      lsp.state.enabled = true
      h.eq(
        { { provider = "sim", debounceMs = 50, enable = true }, vim.NIL },
        handler(nil, { items = { { section = "infill" }, { section = "other" } } }, { client_id = 1 })
      )
      lsp.state.enabled = false
      h.eq(false, handler(nil, { items = { { section = "infill" } } }, { client_id = 1 })[1].enable)
      lsp.state.enabled = true
    end)

    it("sends the same settings as initializationOptions", function()
      config.setup({ settings = { lineMode = "single-line" } })
      local cfg = lsp.client_config({ "infill-lsp", "--stdio" })
      h.eq({ lineMode = "single-line", enable = true }, cfg.init_options)
      h.eq({ infill = { lineMode = "single-line", enable = true } }, cfg.settings)
      h.eq("infill", cfg.name)
    end)

    it("passes extra environment as cmd_env", function()
      config.setup({ env = { INFILL_MODEL = "deepseek-v4-pro" } })
      h.eq({ INFILL_MODEL = "deepseek-v4-pro" }, lsp.client_config({ "x" }).cmd_env)
      config.setup()
      h.eq(nil, lsp.client_config({ "x" }).cmd_env)
    end)
  end)
end)
