---@brief Ghost text by Neovim's built-in `vim.lsp.inline_completion` (0.12+), behind the same API as
--- `infill.suggestion`. Chosen with `use_native = true`.

local lsp = require("infill.lsp")

local M = {}

local api = vim.api

---@return vim.lsp.Client?
local function client()
  return lsp.get_client(api.nvim_get_current_buf())
end

---@return integer?
local function namespace()
  return api.nvim_get_namespaces()["nvim.lsp.inline_completion"]
end

--- Turn the built-in inline completion on for `bufnr` (the infill client has just attached to it). The switch is
--- per buffer: with a `client_id` filter the built-in module only sets the client's marker, and a buffer stays off
--- unless it is enabled itself.
---@param bufnr integer
function M.attach(bufnr)
  vim.lsp.inline_completion.enable(lsp.state.enabled, { bufnr = bufnr })
end

--- Nothing to undo: the built-in module stops by itself when the client detaches.
function M.detach() end

--- Follow `:Infill enable`/`disable`.
---@param enabled boolean
function M.set_enabled(enabled)
  for _, c in ipairs(lsp.clients()) do
    for bufnr in pairs(c.attached_buffers) do
      vim.lsp.inline_completion.enable(enabled, { bufnr = bufnr })
    end
  end
end

---@return boolean
function M.is_visible()
  local ns = namespace()
  return ns ~= nil and #api.nvim_buf_get_extmarks(0, ns, 0, -1, { limit = 1 }) > 0
end

---@param pick? fun(text: string): string
---@return boolean
local function accept_with(pick)
  if not M.is_visible() then
    return false
  end
  return vim.lsp.inline_completion.get({
    on_accept = pick and function(item)
      local text = type(item.insert_text) == "string" and item.insert_text or item.insert_text.value
      local cursor = api.nvim_win_get_cursor(0)
      local line = api.nvim_get_current_line()
      -- The built-in item still includes what the user typed since the range start; skip it.
      if item.range then
        local _, start_col = item.range:to_extmark()
        local typed = line:sub(start_col + 1, cursor[2])
        if text:sub(1, #typed) == typed then
          text = text:sub(#typed + 1)
        end
      end
      local picked = pick(text)
      api.nvim_paste(picked, false, -1)
      -- Neovim runs the item's command only when it inserts the whole item itself.
      require("infill.usage").report(item.client_id, item.command, text:sub(#picked + 1))
      return nil
    end or nil,
  })
end

function M.accept()
  return accept_with(nil)
end

function M.accept_word()
  return accept_with(require("infill.suggestion").next_word)
end

function M.accept_line()
  return accept_with(require("infill.suggestion").next_line)
end

---@return boolean
function M.dismiss()
  local visible = M.is_visible()
  if visible and client() then
    -- There is no public "hide": turning the buffer off and on again drops the item and its pending requests.
    local bufnr = api.nvim_get_current_buf()
    vim.lsp.inline_completion.enable(false, { bufnr = bufnr })
    vim.lsp.inline_completion.enable(lsp.state.enabled, { bufnr = bufnr })
  end
  return visible
end

---@param count integer
---@return boolean
local function select(count)
  if not M.is_visible() then
    return false
  end
  vim.lsp.inline_completion.select({ count = count })
  return true
end

function M.next()
  return select(1)
end

function M.prev()
  return select(-1)
end

--- The built-in module asks on its own while typing; this nudges it (insert mode only).
---@return boolean
function M.suggest()
  if not client() or api.nvim_get_mode().mode:sub(1, 1) ~= "i" then
    return false
  end
  api.nvim_exec_autocmds("CursorMovedI", { buffer = api.nvim_get_current_buf(), modeline = false })
  return true
end

return M
