-- The one place that knows which Neovim API exists where. Everything else calls these, so the
-- plugin uses the current API on new versions and falls back only where 0.7 lacks it:
--   vim.uv (0.10) / vim.loop; vim.islist (0.10) / vim.tbl_islist; vim.lsp.start (0.8) /
--   vim.lsp.start_client; vim.lsp.get_clients (0.10) / get_active_clients + buf_get_clients;
--   client:request() method calls (0.11) / client.request() field calls (0.7-0.10).
local M = {}

M.uv = vim.uv or vim.loop
M.islist = vim.islist or vim.tbl_islist

M.has_010 = vim.fn.has('nvim-0.10') == 1
local method_calls = vim.fn.has('nvim-0.11') == 1

-- Calls a client method: client:name(...) on 0.11+, client.name(...) before (0.7-0.10 bind
-- the client in a closure and would take it as the first argument).
function M.call(client, name, ...)
  if method_calls then return client[name](client, ...) end
  return client[name](...)
end

function M.is_stopped(client)
  return M.call(client, 'is_stopped')
end

-- Clients being stopped on purpose (:GreenlightRestart), by id. is_stopped() answers false
-- until the server has answered shutdown or its process has exited (even after a forced stop,
-- which only signals it), and a client on its way out must not be reused.
M.stopping = {}

function M.is_live(client)
  return not M.is_stopped(client) and not M.stopping[client.id]
end

-- Live clients only: right after stop() Neovim still lists a client (get_clients,
-- get_client_by_id) until its process exits, and reusing it would attach to a dead server.
local function live(list)
  local out = {}
  for _, client in pairs(list or {}) do
    if M.is_live(client) then table.insert(out, client) end
  end
  return out
end

-- Live clients named `name`, optionally only those attached to `bufnr`.
function M.get_clients(name, bufnr)
  if vim.lsp.get_clients then return live(vim.lsp.get_clients({ name = name, bufnr = bufnr })) end
  local all = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c) return c.name == name end, live(all))
end

function M.get_client(id)
  local client = id and vim.lsp.get_client_by_id(id)
  if client and M.is_live(client) then return client end
  return nil
end

-- Buffers the client is attached to (client.attached_buffers exists from 0.7 on).
function M.attached_buffers(client)
  local out = {}
  for bufnr, attached in pairs(client.attached_buffers or {}) do
    if attached and vim.api.nvim_buf_is_valid(bufnr) then table.insert(out, bufnr) end
  end
  table.sort(out)
  return out
end

-- The client started for each name + root (0.7: vim.lsp.start_client has no reuse of its own).
-- Kept here because 0.7 lists a client in get_active_clients() only once it is initialized: a
-- second file opened while the first one's server still starts must find it too.
local started = {}

-- Starts a client for `config` attached to `bufnr`, reusing a live one for the same name and
-- root: one server per workspace root, serving every file under it. Returns the client id or nil.
function M.start(config, bufnr)
  if vim.lsp.start then
    return vim.lsp.start(config, {
      bufnr = bufnr,
      reuse_client = function(client, conf)
        return client.name == conf.name and client.config.root_dir == conf.root_dir and M.is_live(client)
      end,
    })
  end
  local key = config.name .. '\0' .. tostring(config.root_dir)
  local reuse = M.get_client(started[key])
  if not reuse then
    for _, client in ipairs(M.get_clients(config.name)) do
      if client.config.root_dir == config.root_dir then reuse = client end
    end
  end
  if reuse then
    vim.lsp.buf_attach_client(bufnr, reuse.id)
    return reuse.id
  end
  local id = vim.lsp.start_client(config)
  if id then
    started[key] = id
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- Starts a client for `config` with no buffer attached (vim.lsp.start attaches one before
-- 0.11); M.start() reuses it for the buffers of its root. Returns the client id or nil.
function M.start_detached(config)
  local key = config.name .. '\0' .. tostring(config.root_dir)
  -- 0.7 lists a client only once it is initialized: one still starting is found here.
  if M.get_client(started[key]) then return started[key] end
  local id
  if vim.fn.has('nvim-0.11') == 1 then
    id = vim.lsp.start(config, { attach = false })
  else
    id = vim.lsp.start_client(config)
  end
  if id then started[key] = id end
  return id
end

-- vim.diff became vim.text.diff in 0.11.
function M.diff(a, b, opts)
  local fn = (vim.text and vim.text.diff) or vim.diff
  return fn(a, b, opts)
end

-- Whether the caller runs inside the coroutine Neovim (0.10) wraps around server-request
-- handlers, where a handler may yield and answer later; 0.7 calls handlers on the main thread.
function M.handler_coroutine()
  local co, is_main = coroutine.running()
  if co and not is_main then return co end
  return nil
end

return M
