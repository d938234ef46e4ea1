---@brief Keymaps: each key runs an action of `require("infill")`, and hands the keystroke to the user's earlier
--- mapping of that key (or to the key's own meaning) when there is nothing to act on. The ghost-text keys are
--- insert-mode keys; the next-edit keys work in normal and insert mode, and are set only when next edits are on.
--- The `<Plug>` mappings of the next-edit actions are always there.

local M = {}

--- What `lhs` does when it is not mapped. An unmapped Alt key is `<Esc>` and the key (in insert mode: leave it, then
--- the normal-mode command; in normal mode: the command), but only as typed: fed back with `nvim_feedkeys` it would
--- insert the key.
---@param lhs string
---@return string
function M.unmapped_keys(lhs)
  local inner = lhs:match("^<[MmAa]%-(.+)>$")
  if not inner then
    return lhs
  end
  return "<Esc>" .. (vim.fn.strchars(inner) == 1 and inner or ("<" .. inner .. ">"))
end

--- The global mapping of `lhs` in `mode`, in `maparg()` form, or nil.
---@param lhs string
---@param mode string
---@return table?
local function global_mapping(lhs, mode)
  local found = vim.fn.maparg(lhs, mode, false, true)
  if vim.tbl_isempty(found) then
    return nil
  end
  if found.buffer ~= 1 then
    return found
  end
  -- A buffer-local mapping hides the global one from maparg(); look the global one up by its normalized lhs.
  for _, m in ipairs(vim.api.nvim_get_keymap(mode)) do
    if m.lhs == found.lhs then
      return m
    end
  end
  return nil
end

---@param m? table maparg() form
---@return boolean
local function is_ours(m)
  return m ~= nil and vim.startswith(m.desc or "", "infill: ")
end

---@class infill.Mapped
---@field lhs string
---@field mode string
---@field previous? table The user's mapping of `lhs` before the plugin's (maparg() form), restored on teardown.

---@type infill.Mapped[]
local mapped = {}

--- Run the keymap action `name`. An error is reported (in the log and `:checkhealth`, and through `vim.notify` once
--- per message unless the `notify` option is off), the suggestion (or next edit) is dropped, and the action counts
--- as having done nothing.
---@param name string
---@param action fun(): boolean
---@return boolean acted, boolean failed
function M.run_action(name, action)
  local ok, result = pcall(action)
  if ok then
    return result == true, false
  end
  require("infill.lsp").report(
    1,
    ("infill: %s failed: %s"):format(name, tostring(result)),
    { kind = "action-error" }
  )
  -- What the key was about is dropped: the next edit for a next-edit key, else the ghost text.
  pcall(require("infill")[name:find("^next_edit") and "next_edit_dismiss" or "dismiss"])
  return false, true
end

--- Do what the user's mapping `previous` of `lhs` does, as a mapping would: call its callback or feed its
--- right-hand side (evaluated when it is an <expr> mapping), remapped unless it is a noremap mapping. As in Vim,
--- keys of the result that start with `lhs` itself are not mapped again.
---@param previous table maparg() form
---@param lhs string
function M.run_previous(previous, lhs)
  local keys
  if previous.callback then
    local result = previous.callback()
    if previous.expr ~= 1 then
      return
    end
    keys = type(result) == "string" and result or ""
    if previous.replace_keycodes == 1 then
      keys = vim.keycode(keys)
    end
  else
    local rhs = previous.rhs or ""
    if (previous.sid or 0) > 0 then
      rhs = rhs:gsub("<[Ss][Ii][Dd]>", "<SNR>" .. previous.sid .. "_")
    end
    if previous.expr == 1 then
      local result = vim.api.nvim_eval(rhs)
      keys = type(result) == "string" and result or tostring(result)
    else
      keys = vim.keycode(rhs)
    end
  end
  if keys == "" then
    return
  end
  local own = vim.keycode(lhs)
  if previous.noremap == 1 or previous.script == 1 then
    vim.api.nvim_feedkeys(keys, "n", false)
  elseif vim.startswith(keys, own) then
    vim.api.nvim_feedkeys(vim.keycode(M.unmapped_keys(lhs)), "n", false)
    vim.api.nvim_feedkeys(keys:sub(#own + 1), "m", false)
  else
    vim.api.nvim_feedkeys(keys, "m", false)
  end
end

---@param name string An action of `require("infill")`.
---@param mode string
---@param lhs string
---@param desc string
---@param fallback boolean Feed the key's own meaning when the action did nothing and there was no user mapping.
---@return infill.Mapped
local function map(name, mode, lhs, desc, fallback)
  local previous = global_mapping(lhs, mode)
  local entry = { lhs = lhs, mode = mode, previous = not is_ours(previous) and previous or nil }
  local keys = vim.keycode(M.unmapped_keys(lhs))
  vim.keymap.set(mode, lhs, function()
    local acted, failed = M.run_action(name, require("infill")[name])
    if acted or failed then
      return
    end
    if entry.previous then
      M.run_previous(entry.previous, lhs)
    elseif fallback then
      vim.api.nvim_feedkeys(keys, "n", false)
    end
  end, { desc = "infill: " .. desc, silent = true })
  return entry
end

---@class infill.Action
---@field desc string
---@field fallback boolean
---@field modes string[]
---@field next_edit? boolean Set only when next edits are on.
---@field plug? string Its `<Plug>` name.

--- The actions a key can be given, by their name in `require("infill")` and in the `keymaps` option.
---@type table<string, infill.Action>
local actions = {
  accept = { desc = "accept suggestion", fallback = true, modes = { "i" } },
  accept_word = { desc = "accept next word", fallback = true, modes = { "i" } },
  accept_line = { desc = "accept next line", fallback = true, modes = { "i" } },
  next = { desc = "next suggestion", fallback = true, modes = { "i" } },
  prev = { desc = "previous suggestion", fallback = true, modes = { "i" } },
  dismiss = { desc = "dismiss suggestion", fallback = true, modes = { "i" } },
  suggest = { desc = "suggest now", fallback = false, modes = { "i" } },
  next_edit = {
    desc = "jump to the next edit, then apply it",
    fallback = true,
    modes = { "n", "i" },
    next_edit = true,
    plug = "<Plug>(infill-next-edit)",
  },
  next_edit_dismiss = {
    desc = "dismiss the next edit",
    fallback = true,
    modes = { "n", "i" },
    next_edit = true,
    plug = "<Plug>(infill-next-edit-dismiss)",
  },
  next_edit_request = {
    desc = "ask for the next edit now",
    fallback = false,
    modes = { "n", "i" },
    next_edit = true,
    plug = "<Plug>(infill-next-edit-request)",
  },
}

--- The plugin's keymaps that wrap a mapping the user had before: lhs, mode and the previous mapping's description.
---@return { lhs: string, mode: string, previous: string }[]
function M.wrapped()
  local out = {}
  for _, entry in ipairs(mapped) do
    if entry.previous then
      local p = entry.previous
      table.insert(
        out,
        { lhs = entry.lhs, mode = entry.mode, previous = p.desc or p.rhs or "(Lua function)" }
      )
    end
  end
  return out
end

--- Remove the plugin's keymaps and put back the mappings they wrapped.
function M.remove()
  for i = #mapped, 1, -1 do
    local entry = mapped[i]
    -- A mapping the user set over the plugin's since is theirs to keep.
    if is_ours(global_mapping(entry.lhs, entry.mode)) then
      pcall(vim.keymap.del, entry.mode, entry.lhs)
      if entry.previous then
        pcall(vim.fn.mapset, entry.mode, false, entry.previous)
      end
    end
  end
  mapped = {}
end

--- Define the `<Plug>` mappings of the actions that have one, in each of their modes.
local function set_plugs()
  for name, spec in pairs(actions) do
    if spec.plug then
      vim.keymap.set(spec.modes, spec.plug, function()
        M.run_action(name, require("infill")[name])
      end, { desc = "infill: " .. spec.desc, silent = true })
    end
  end
end

--- Replace the plugin's keymaps with `keymaps` (`false`: none); the next-edit keys only when `next_edits` is true.
---@param keymaps infill.Keymaps|false
---@param next_edits? boolean
function M.set(keymaps, next_edits)
  M.remove()
  set_plugs()
  if not keymaps then
    return
  end
  local names = vim.tbl_keys(actions)
  table.sort(names)
  for _, name in ipairs(names) do
    local spec = actions[name]
    local lhs = keymaps[name]
    if type(lhs) == "string" and lhs ~= "" and (next_edits or not spec.next_edit) then
      for _, mode in ipairs(spec.modes) do
        table.insert(mapped, map(name, mode, lhs, spec.desc, spec.fallback))
      end
    end
  end
end

return M
