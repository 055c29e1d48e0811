-- CodeLens for greenlight buffers (`▶ Run tests`, `✨ Generate`, `✔ 3 passed`), shown by
-- Neovim's own vim.lsp.codelens (virtual text; `vim.lsp.codelens.run()` runs the lens on the
-- cursor line). Neovim asks for lenses only when told to, so this module refreshes them on
-- attach, on BufEnter, after edits (InsertLeave / TextChanged, debounced) and when the server
-- sends workspace/codeLens/refresh (0.7 and 0.10 have no handler for that request).
--
-- The request is sent here rather than through vim.lsp.codelens.refresh(): that one is
-- per-current-buffer on 0.7, asks every client of the buffer, and drops a refresh that comes
-- while one is in flight, which would lose the refresh the server asks for right after a test
-- run. Here one request per (client, buffer) is in flight and a refresh asked meanwhile runs
-- when it returns. The answer goes to vim.lsp.codelens.on_codelens (save, display, resolve).
local compat = require('greenlight.compat')

local M = {}

local kDebounceMs = 400
-- state[client_id][bufnr] = { inflight = bool, again = bool, timer = uv timer }
local state = {}

local function supported(client)
  return client and client.server_capabilities and client.server_capabilities.codeLensProvider ~= nil
    and client.server_capabilities.codeLensProvider ~= false
end

local function entry(client_id, bufnr)
  state[client_id] = state[client_id] or {}
  state[client_id][bufnr] = state[client_id][bufnr] or {}
  return state[client_id][bufnr]
end

local function clear(client_id, bufnr)
  local ns = vim.lsp.codelens.__namespaces and vim.lsp.codelens.__namespaces[client_id]
  if ns and vim.api.nvim_buf_is_valid(bufnr) then vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1) end
end

-- Asks `client` for the lenses of `bufnr` now (or as soon as the request in flight returns).
function M.refresh(client, bufnr)
  if not supported(client) or compat.is_stopped(client) or not vim.api.nvim_buf_is_loaded(bufnr) then return end
  local e = entry(client.id, bufnr)
  if e.inflight then
    e.again = true
    return
  end
  e.inflight, e.again = true, false
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  local ok = compat.call(client, 'request', 'textDocument/codeLens', params, function(err, result)
    e.inflight = false
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local ctx = { method = 'textDocument/codeLens', client_id = client.id, bufnr = bufnr }
      if err == nil and (result == nil or next(result) == nil) then
        -- 0.7 keeps the old virtual text when the list becomes empty.
        clear(client.id, bufnr)
      end
      vim.lsp.codelens.on_codelens(err, result or {}, ctx, nil)
    end
    if e.again then M.refresh(client, bufnr) end
  end, bufnr)
  if not ok then e.inflight = false end
end

-- Refresh after `kDebounceMs` of quiet (typing sends one request, not one per key).
function M.refresh_later(client, bufnr)
  local e = entry(client.id, bufnr)
  if not e.timer then e.timer = compat.uv.new_timer() end
  e.timer:stop()
  e.timer:start(kDebounceMs, 0, vim.schedule_wrap(function()
    local live = compat.get_client(client.id)
    if live then M.refresh(live, bufnr) end
  end))
end

-- workspace/codeLens/refresh: every loaded buffer of the client asks again.
function M.refresh_handler(_, _, ctx)
  local client = compat.get_client(ctx.client_id)
  if client then
    for _, bufnr in ipairs(compat.attached_buffers(client)) do M.refresh(client, bufnr) end
  end
  return vim.NIL
end

function M.on_attach(client, bufnr)
  if not supported(client) then return end
  local group = vim.api.nvim_create_augroup(string.format('greenlight_codelens_%d_%d', client.id, bufnr), { clear = true })
  vim.api.nvim_create_autocmd('BufEnter', { group = group, buffer = bufnr, callback = function()
    local live = compat.get_client(client.id)
    if live then M.refresh(live, bufnr) else pcall(vim.api.nvim_del_augroup_by_id, group) end
  end })
  vim.api.nvim_create_autocmd({ 'InsertLeave', 'TextChanged' }, { group = group, buffer = bufnr, callback = function()
    local live = compat.get_client(client.id)
    if live then M.refresh_later(live, bufnr) else pcall(vim.api.nvim_del_augroup_by_id, group) end
  end })
  M.refresh(client, bufnr)
end

function M.forget(client_id)
  for bufnr, e in pairs(state[client_id] or {}) do
    if e.timer then
      e.timer:stop()
      e.timer:close()
    end
    pcall(vim.api.nvim_del_augroup_by_name, string.format('greenlight_codelens_%d_%d', client_id, bufnr))
    clear(client_id, bufnr)
  end
  state[client_id] = nil
end

-- The lens titles shown on each line of `bufnr` for `client_id`: { [line0] = 'a | b' }.
function M.shown(client_id, bufnr)
  local out = {}
  local ns = vim.lsp.codelens.__namespaces and vim.lsp.codelens.__namespaces[client_id]
  if not ns then return out end
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local text = {}
    for _, chunk in ipairs(mark[4].virt_text or {}) do table.insert(text, chunk[1]) end
    out[mark[2]] = table.concat(text)
  end
  return out
end

return M
