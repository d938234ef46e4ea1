-- `:help infill-option-settings` and the `infill.Settings` annotations list every setting of the server, with the
-- defaults of the server's README table (which packages/lsp-server/test/help.test.ts keeps in step with the schema).
local h = require("helpers")

local root = require("infill.lsp").plugin_root()

--- A Markdown cell as plain text: code spans and links reduced to their text.
---@param cell string
---@return string
local function plain(cell)
  return vim.trim((cell:gsub("%[([^%]]*)%]%([^)]*%)", "%1"):gsub("`", "")))
end

--- The body rows of the first table of the server README's "Settings" section: name → default (plain text).
---@return table<string, string> defaults, string[] names in the README's order
local function readme_settings()
  local lines = vim.fn.readfile(root .. "/../lsp-server/README.md")
  local defaults, names = {}, {}
  local in_section, in_table = false, false
  for _, line in ipairs(lines) do
    if line:find("^## ") then
      if in_section then
        break
      end
      in_section = line == "## Settings"
    elseif in_section and line:find("^|") then
      in_table = true
      local cells = vim.split(line:gsub("\\|", "\1"):sub(2, -2), "|", { plain = true })
      local name = plain(cells[1] or "")
      if name ~= "setting" and not name:find("^%-+$") then
        defaults[name] = plain((cells[3] or ""):gsub("\1", "|"))
        table.insert(names, name)
      end
    elseif in_table then
      break
    end
  end
  return defaults, names
end

--- The entries of `:help infill-option-settings`: name → its text (continuation lines joined).
---@return table<string, string>
local function doc_settings()
  local lines = vim.fn.readfile(root .. "/doc/infill.txt")
  local entries, current = {}, nil
  local inside = false
  for _, line in ipairs(lines) do
    if line:find("%*infill%-option%-settings%*") then
      inside = true
    elseif inside and (line:find("^=+$") or line:find("%*[%w.-]+%*%s*$")) then
      break
    elseif inside then
      local name, rest = line:match("^    ([%a][%w.]*)  +(%S.*)$")
      if name then
        current = name
        entries[name] = rest
      elseif current and line:find("^          ") then
        entries[current] = entries[current] .. " " .. vim.trim(line)
      else
        current = nil
      end
    end
  end
  return entries
end

describe("the settings documentation", function()
  local defaults, names = readme_settings()
  local entries = doc_settings()

  it("reads the server's settings table", function()
    h.ok(#names >= 20, "settings read from the server's README: " .. vim.inspect(names))
    h.ok(defaults.provider == "deepseek", "the default of provider: " .. vim.inspect(defaults.provider))
  end)

  it("lists every setting of the server in :help infill-option-settings", function()
    local missing = vim.tbl_filter(function(name)
      return entries[name] == nil
    end, names)
    h.eq({}, missing, "settings missing from doc/infill.txt")
  end)

  it("lists no setting the server does not have", function()
    local unknown = vim.tbl_filter(function(name)
      return defaults[name] == nil
    end, vim.tbl_keys(entries))
    h.eq({}, unknown, "entries of doc/infill.txt that name no setting")
  end)

  it("gives each setting the README's default", function()
    for _, name in ipairs(names) do
      local entry = entries[name] or ""
      local said = entry:match("Default (.*)$")
      h.ok(said, name .. ": no default in " .. vim.inspect(entry))
      -- A default of one word or number is checked as a word of its own (a default of 0 is not shown by "10");
      -- JSON's [] is Lua's {}.
      local default = defaults[name] == "[]" and "{}" or defaults[name]
      if default:find("^[%w{}%-]+$") then
        local at = said:find(default, 1, true)
        local before, after =
          at and said:sub(at - 1, at - 1) or "", at and said:sub(at + #default, at + #default)
        h.ok(
          at and not before:find("[%w.]") and not (after or ""):find("[%w]"),
          ("%s: default %s, the doc says %s"):format(name, default, said)
        )
      end
    end
  end)

  it("has a field of infill.Settings for every setting", function()
    local source = table.concat(vim.fn.readfile(root .. "/lua/infill/config.lua"), "\n")
    local class = h.ok(source:match("%-%-%-@class %(exact%) infill%.Settings\n(.-)\n\n"), "infill.Settings")
    local fields = {}
    for field in class:gmatch("%-%-%-@field ([%w_]+)%?") do
      fields[field] = true
    end
    for _, name in ipairs(names) do
      local top = name:match("^[^.]+")
      h.ok(fields[top], "infill.Settings has no field " .. top)
    end
  end)
end)
