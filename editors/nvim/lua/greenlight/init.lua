-- greenlight for Neovim (0.7.2 and later): starts `greenlight lsp` for Python, JavaScript and
-- C++ buffers with vim.lsp.start_client (vim.lsp.start does not exist before 0.8), one client per
-- root directory, and provides the :Greenlight* commands. No setup() call is needed: the plugin
-- reads vim.g.greenlight (see config.lua) each time it starts a client or answers the server.
local config = require('greenlight.config')
local binary = require('greenlight.binary')
local progress = require('greenlight.progress')

local M = {}

-- root_dir -> client id
local clients_by_root = {}
-- client id -> { request ids of our executeCommand requests in flight }
local pending = {}
-- The last "binary not found" message shown.
local last_binary_error = nil
-- client id -> serverInfo from the initialize result ({name, version}), when the server sent it.
M.server_info = {}
-- Per client: how many workspace/configuration requests were answered (for :checkhealth and tests).
M.stats = { configuration_requests = {} }

local function notify(msg, level)
  vim.notify('greenlight: ' .. msg, level or vim.log.levels.INFO)
end

local function find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local current = dir
  while true do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(current .. '/' .. marker) then return current end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then return dir end
    current = parent
  end
end

local function answer_configuration(_, result, ctx)
  local cfg = config.get()
  local id = ctx.client_id
  M.stats.configuration_requests[id] = (M.stats.configuration_requests[id] or 0) + 1
  local answers = {}
  for i, item in ipairs(result and result.items or {}) do
    if item.section == 'greenlight' then
      answers[i] = config.server_settings(cfg)
    elseif type(item.section) == 'string' and item.section:find('^greenlight%.') then
      answers[i] = config.server_subsection(cfg, item.section:sub(#'greenlight.' + 1))
    else
      answers[i] = vim.NIL
    end
  end
  return answers
end

local function on_progress(err, result, ctx, handler_config)
  local default = vim.lsp.handlers['$/progress']
  if default then pcall(default, err, result, ctx, handler_config) end
  if result then progress.handle(config.get().progress, ctx.client_id, result.token, result.value) end
end

-- The greenlight client attached to `bufnr` (default: current buffer), or nil.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = bufnr, name = 'greenlight' })[1] end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'greenlight' then return client end
  end
  return nil
end

-- Every running greenlight client.
function M.clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ name = 'greenlight' }) end
  local out = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == 'greenlight' then table.insert(out, client) end
  end
  return out
end

-- The client capabilities: Neovim's, plus what this plugin adds (0.7 advertises neither,
-- though it handles both), plus vim.g.greenlight.capabilities.
function M.capabilities(cfg)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace = caps.workspace or {}
  -- Answered from vim.g.greenlight by answer_configuration(); without it the server cannot
  -- pull its settings and falls back to the didChangeConfiguration payload.
  caps.workspace.configuration = true
  -- vim.lsp.util.apply_workspace_edit applies versioned documentChanges (and refuses edits
  -- for a buffer that changed since); greenlight's edits come that way.
  caps.workspace.workspaceEdit = caps.workspace.workspaceEdit or {}
  caps.workspace.workspaceEdit.documentChanges = true
  caps.window = caps.window or {}
  caps.window.workDoneProgress = true
  if cfg and type(cfg.capabilities) == 'table' then caps = vim.tbl_deep_extend('force', caps, cfg.capabilities) end
  return caps
end

-- Starts (or reuses) the client for the buffer's root and attaches the buffer.
-- Returns the client id, or nil and a message.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if M.client(bufnr) then return M.client(bufnr).id end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or vim.bo[bufnr].buftype ~= '' then return nil, 'not a file buffer' end
  local cfg = config.get()
  local root = find_root(name, cfg.root_markers)
  local id = clients_by_root[root]
  if id and (not vim.lsp.get_client_by_id(id) or vim.lsp.get_client_by_id(id).is_stopped()) then
    clients_by_root[root] = nil
    id = nil
  end
  if not id then
    local path, source_or_error = binary.resolve(cfg)
    if not path then
      -- Once per distinct problem, not once per buffer opened.
      if source_or_error ~= last_binary_error then notify(source_or_error, vim.log.levels.ERROR) end
      last_binary_error = source_or_error
      return nil, source_or_error
    end
    last_binary_error = nil
    local cmd = { path, 'lsp' }
    vim.list_extend(cmd, cfg.server.extra_args or {})
    local settings = config.server_settings(cfg)
    id = vim.lsp.start_client({
      name = 'greenlight',
      cmd = cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      init_options = settings,
      -- Also sent as workspace/didChangeConfiguration after initialize; the server then pulls.
      settings = { greenlight = settings },
      capabilities = M.capabilities(cfg),
      handlers = {
        ['workspace/configuration'] = answer_configuration,
        ['$/progress'] = on_progress,
      },
      flags = { debounce_text_changes = 150 },
      on_init = function(client, result)
        M.server_info[client.id] = result and result.serverInfo or nil
      end,
      on_attach = function(client, attached)
        if type(cfg.on_attach) == 'function' then cfg.on_attach(client, attached) end
      end,
      on_exit = function(code, signal, client_id)
        progress.forget(client_id)
        M.server_info[client_id] = nil
        pending[client_id] = nil
        for r, cid in pairs(clients_by_root) do
          if cid == client_id then clients_by_root[r] = nil end
        end
        if code ~= 0 or signal ~= 0 then
          vim.schedule(function()
            notify(string.format('server exited with code %d, signal %d; see :LspLog, or :GreenlightRestart', code, signal),
              vim.log.levels.WARN)
          end)
        end
      end,
    })
    if not id then
      local msg = 'could not start ' .. table.concat(cmd, ' ')
      notify(msg, vim.log.levels.ERROR)
      return nil, msg
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Called from the FileType autocmd: attach when the filetype is one of ours.
function M.maybe_attach(bufnr)
  local cfg = config.get()
  if not cfg.autostart then return end
  if vim.tbl_contains(cfg.filetypes, vim.bo[bufnr].filetype) then M.attach(bufnr) end
end

local function require_client()
  local client = M.client(0)
  if not client then
    notify(string.format('no greenlight server for this buffer (filetype "%s"); see :checkhealth greenlight', vim.bo.filetype),
      vim.log.levels.WARN)
  end
  return client
end

local function position_params(client)
  return vim.lsp.util.make_position_params(0, client.offset_encoding)
end

-- Sends workspace/executeCommand and tracks it so :GreenlightCancel can cancel it.
local function execute(client, command, arguments, on_done)
  local request_id
  local ok
  ok, request_id = client.request('workspace/executeCommand', { command = command, arguments = arguments },
    function(err, result)
      if pending[client.id] then pending[client.id][request_id] = nil end
      if err then
        if err.code ~= -32800 then notify(command .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
      elseif on_done then
        on_done(result)
      end
    end, vim.api.nvim_get_current_buf())
  if ok and request_id then
    pending[client.id] = pending[client.id] or {}
    pending[client.id][request_id] = command
  end
  return ok and request_id or nil
end

-- :GreenlightRunTests: run the tests near the cursor in the sandbox.
function M.run_tests()
  local client = require_client()
  if not client then return nil end
  local params = position_params(client)
  return execute(client, 'greenlight.runTests', { { uri = params.textDocument.uri, position = params.position } })
end

local function run_action(client, action)
  local function go(resolved)
    if resolved.edit then vim.lsp.util.apply_workspace_edit(resolved.edit, client.offset_encoding) end
    local command = resolved.command
    if type(command) == 'table' then execute(client, command.command, command.arguments) end
  end
  if not action.edit and not action.command then
    client.request('codeAction/resolve', action, function(err, resolved)
      if err then return notify('codeAction/resolve: ' .. (err.message or ''), vim.log.levels.ERROR) end
      go(resolved)
    end)
  else
    go(action)
  end
end

-- :GreenlightGenerate: generate code from the comment at the cursor.
function M.generate()
  local client = require_client()
  if not client then return end
  local params = position_params(client)
  params.range = { start = { line = params.position.line, character = 0 }, ['end'] = { line = params.position.line + 1, character = 0 } }
  params.position = nil
  params.context = { diagnostics = {}, only = { 'refactor.rewrite.greenlight' } }
  client.request('textDocument/codeAction', params, function(err, actions)
    if err then return notify('textDocument/codeAction: ' .. (err.message or ''), vim.log.levels.ERROR) end
    local ours = vim.tbl_filter(function(a)
      return type(a.kind) == 'string' and a.kind:find('^refactor%.rewrite%.greenlight') ~= nil
    end, actions or {})
    if #ours == 0 then
      return notify('no comment to generate from here: put the cursor on a comment that describes the code to write')
    end
    if #ours == 1 then return run_action(client, ours[1]) end
    vim.ui.select(ours, { prompt = 'greenlight: generate from', format_item = function(a) return a.title end },
      function(choice) if choice then run_action(client, choice) end end)
  end, vim.api.nvim_get_current_buf())
end

-- :GreenlightCancel: cancel our requests in flight, the server's cancellable progress, and
-- anything else the server runs (greenlight.cancel).
function M.cancel()
  local any = false
  for _, client in ipairs(M.clients()) do
    for request_id in pairs(pending[client.id] or {}) do
      client.cancel_request(request_id)
    end
    pending[client.id] = nil
    progress.cancel_all(client)
    client.request('workspace/executeCommand', { command = 'greenlight.cancel', arguments = {} }, function() end)
    any = true
  end
  if not any then notify('no greenlight server is running') end
end

-- :GreenlightRestart: stop every greenlight client, then start again for the buffers they had
-- (re-reading vim.g.greenlight and finding the binary again).
function M.restart()
  local buffers = {}
  local stopping = M.clients()
  for _, client in ipairs(stopping) do
    for _, b in ipairs(vim.lsp.get_buffers_by_client_id(client.id)) do table.insert(buffers, b) end
    client.stop()
  end
  local stopped = vim.wait(5000, function()
    for _, client in ipairs(stopping) do
      if not client.is_stopped() then return false end
    end
    return true
  end, 20)
  if not stopped then
    for _, client in ipairs(stopping) do client.stop(true) end
  end
  clients_by_root = {}
  if #buffers == 0 and vim.tbl_contains(config.get().filetypes, vim.bo.filetype) then
    table.insert(buffers, vim.api.nvim_get_current_buf())
  end
  for _, b in ipairs(buffers) do
    if vim.api.nvim_buf_is_loaded(b) then M.attach(b) end
  end
end

-- Tells running servers that the settings changed (after editing vim.g.greenlight); they pull
-- the new values with workspace/configuration.
function M.reload_settings()
  local cfg = config.get()
  for _, client in ipairs(M.clients()) do
    client.notify('workspace/didChangeConfiguration', { settings = { greenlight = config.server_settings(cfg) } })
  end
end

M.status = progress.status

return M
