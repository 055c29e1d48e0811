-- greenlight for Neovim (0.7.2 and later): starts `greenlight lsp` for Python, JavaScript and
-- C++ buffers (vim.lsp.start, or vim.lsp.start_client on 0.7), one client per root directory,
-- and provides the :Greenlight* commands. No setup() call is needed: the plugin reads
-- vim.g.greenlight (see config.lua) each time it starts a client or answers the server.
--
-- Modules: config (defaults + validation), binary (finding the server), commands (run, generate,
-- fix, cancel), apply (workspace/applyEdit: versions, preview, one undo step), preview (the diff
-- float), progress ($/progress), codelens, diagnostics (raw published diagnostics for fix),
-- tests (greenlight/listTests + greenlight/testResults: :GreenlightTests, the neotest adapter's
-- feed), coverage (signs on the lines no test ran), health (:checkhealth), compat (what differs between Neovim versions). The neotest
-- adapter is lua/neotest-greenlight, loaded only by a neotest setup that names it.
local compat = require('greenlight.compat')
local config = require('greenlight.config')
local binary = require('greenlight.binary')
local progress = require('greenlight.progress')
local commands = require('greenlight.commands')
local apply = require('greenlight.apply')
local codelens = require('greenlight.codelens')
local diagnostics = require('greenlight.diagnostics')
local tests = require('greenlight.tests')

local M = {}

-- The last "binary not found" message shown.
local last_binary_error = nil
-- client id -> serverInfo from the initialize result ({name, version}), when the server sent it.
M.server_info = {}
-- Per client: how many workspace/configuration requests were answered (for :checkhealth and tests).
M.stats = { configuration_requests = {} }

local notify = commands.notify

local function find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local current = dir
  while true do
    for _, marker in ipairs(markers) do
      if compat.uv.fs_stat(current .. '/' .. marker) then return current end
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

-- window/showDocument for 0.7, which has no handler (0.10's is used where it exists).
local function show_document(_, result, ctx)
  if type(result) ~= 'table' or type(result.uri) ~= 'string' then return { success = false } end
  if result.external then
    local opener = vim.fn.executable('xdg-open') == 1 and 'xdg-open' or (vim.fn.executable('open') == 1 and 'open' or nil)
    if not opener then return { success = false } end
    vim.fn.jobstart({ opener, result.uri }, { detach = true })
    return { success = true }
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local bufnr = vim.uri_to_bufnr(result.uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then vim.fn.bufload(bufnr) end
  vim.bo[bufnr].buflisted = true
  if result.takeFocus ~= false then
    vim.api.nvim_win_set_buf(0, bufnr)
    if result.selection and client then
      local start = result.selection.start
      local line = vim.api.nvim_buf_get_lines(bufnr, start.line, start.line + 1, false)[1] or ''
      local col = start.character
      if client.offset_encoding ~= 'utf-8' then
        local ok, byte = pcall(vim.str_byteindex, line, start.character, client.offset_encoding == 'utf-16')
        col = ok and byte or #line
      end
      pcall(vim.api.nvim_win_set_cursor, 0, { start.line + 1, col })
    end
  end
  return { success = true }
end

-- The greenlight client attached to `bufnr` (default: current buffer), or nil. Stopped clients
-- (still listed by Neovim until their process exits) do not count.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return compat.get_clients('greenlight', bufnr)[1]
end

-- Every running greenlight client.
function M.clients()
  return compat.get_clients('greenlight')
end

-- The client capabilities: Neovim's, plus what this plugin implements (0.7 advertises none
-- of these, though it handles some), plus vim.g.greenlight.capabilities.
function M.capabilities(cfg)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace = caps.workspace or {}
  -- Answered from vim.g.greenlight by answer_configuration().
  caps.workspace.configuration = true
  -- apply.lua applies versioned documentChanges (refusing a stale version) and asks before an
  -- edit whose change annotation needs confirmation.
  caps.workspace.workspaceEdit = caps.workspace.workspaceEdit or {}
  caps.workspace.workspaceEdit.documentChanges = true
  caps.workspace.workspaceEdit.changeAnnotationSupport = { groupsOnLabel = false }
  -- codelens.lua handles workspace/codeLens/refresh.
  caps.workspace.codeLens = { refreshSupport = true }
  caps.window = caps.window or {}
  caps.window.workDoneProgress = true
  caps.window.showDocument = { support = true }
  if cfg and type(cfg.capabilities) == 'table' then caps = vim.tbl_deep_extend('force', caps, cfg.capabilities) end
  return caps
end

local function handlers()
  local h = {
    ['workspace/configuration'] = answer_configuration,
    ['workspace/applyEdit'] = apply.handler,
    ['workspace/codeLens/refresh'] = codelens.refresh_handler,
    ['textDocument/publishDiagnostics'] = diagnostics.handler,
    ['window/showMessage'] = commands.show_message,
    ['window/showMessageRequest'] = commands.show_message_request,
    ['greenlight/testResults'] = tests.results_handler,
  }
  if not vim.lsp.handlers['window/showDocument'] then h['window/showDocument'] = show_document end
  if not compat.has_010 then
    h['$/progress'] = progress.handler(function() return config.get().progress end)
  end
  return h
end

local function on_exit(code, signal, client_id)
  -- A server that :GreenlightRestart had to kill (it did not exit in time) ends by our SIGTERM:
  -- not news to the user who asked for the restart.
  local killed_by_restart = compat.stopping[client_id] and signal == 15
  compat.stopping[client_id] = nil
  progress.forget(client_id)
  commands.forget(client_id)
  diagnostics.forget(client_id)
  M.server_info[client_id] = nil
  vim.schedule(function()
    codelens.forget(client_id)
    tests.forget(client_id)
    require('greenlight.coverage').forget(client_id)
  end)
  if (code ~= 0 or signal ~= 0) and not killed_by_restart then
    vim.schedule(function()
      notify(string.format('server exited with code %d, signal %d; see :LspLog, or :GreenlightRestart', code, signal),
        vim.log.levels.WARN)
    end)
  end
end

-- The client configuration for a workspace root, or nil and a message (no binary).
local function client_config(root)
  local cfg = config.get()
  local path, source_or_error = binary.resolve(cfg)
  if not path then
    -- Once per distinct problem, not once per buffer opened; notify() shows an ERROR from the
    -- loop, so it is one line and not a stack trace out of the FileType autocmd.
    if source_or_error ~= last_binary_error then notify(source_or_error, vim.log.levels.ERROR) end
    last_binary_error = source_or_error
    return nil, source_or_error
  end
  last_binary_error = nil
  local cmd = { path, 'lsp' }
  vim.list_extend(cmd, cfg.server.extra_args or {})
  return {
    name = 'greenlight',
    cmd = cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    -- The settings go as initializationOptions and in answer to the server's
    -- workspace/configuration pull (it pulls once after `initialized`). No `settings` here:
    -- with it Neovim >= 0.8 also sends workspace/didChangeConfiguration after initialize
    -- (0.7 does not), which would make the server pull a second time on those versions only.
    init_options = config.server_settings(cfg),
    capabilities = M.capabilities(cfg),
    handlers = handlers(),
    commands = commands.client_commands(),
    flags = { debounce_text_changes = 150 },
    on_init = function(client, result)
      M.server_info[client.id] = result and result.serverInfo or nil
      -- The workspace's tests, listed in the background as the server starts (the summary and
      -- the neotest adapter show them before any file of theirs is opened).
      vim.schedule(function()
        if compat.get_client(client.id) then tests.list_workspace(client, {}) end
      end)
    end,
    on_attach = function(client, attached)
      if config.get().codelens then codelens.on_attach(client, attached) end
      local user = config.get().on_attach
      if type(user) == 'function' then user(client, attached) end
    end,
    on_exit = on_exit,
  }
end

-- Starts (or reuses) the client for the buffer's root and attaches the buffer.
-- Returns the client id, or nil and a message.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local existing = M.client(bufnr)
  if existing then return existing.id end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or vim.bo[bufnr].buftype ~= '' then return nil, 'not a file buffer' end
  local root = find_root(name, config.get().root_markers)
  local conf, err = client_config(root)
  if not conf then return nil, err end
  local id = compat.start(conf, bufnr)
  if not id then
    local msg = 'could not start ' .. table.concat(conf.cmd, ' ')
    notify(msg, vim.log.levels.ERROR)
    return nil, msg
  end
  return id
end

-- Starts (or reuses) the client of the workspace `dir` is in, with no buffer attached (the
-- summary opened before any file). Returns the client id, or nil and a message.
function M.start_root(dir)
  local root = find_root(dir .. '/.', config.get().root_markers)
  for _, client in ipairs(M.clients()) do
    if client.config.root_dir == root then return client.id end
  end
  local conf, err = client_config(root)
  if not conf then return nil, err end
  local id = compat.start_detached(conf)
  if not id then
    local msg = 'could not start ' .. table.concat(conf.cmd, ' ')
    notify(msg, vim.log.levels.ERROR)
    return nil, msg
  end
  return id
end

-- Called from the FileType autocmd: attach when the filetype is one of ours.
function M.maybe_attach(bufnr)
  local cfg = config.get()
  if not cfg.autostart then return end
  if vim.tbl_contains(cfg.filetypes, vim.bo[bufnr].filetype) then M.attach(bufnr) end
end

local function with_client(fn)
  return function(...)
    local client = commands.require_client(M.client)
    if client then return fn(client, ...) end
    return nil
  end
end

-- :GreenlightRunTests: run the tests near the cursor in the sandbox.
M.run_tests = with_client(commands.run_tests)
-- :GreenlightGenerate [rounds=N] [candidates=N]: generate code from the comment (or stub) at
-- the cursor, verified by its tests.
M.generate = with_client(commands.generate)
-- :GreenlightFix: fix the code until the failing test under the cursor passes.
M.fix = with_client(commands.fix)

-- :GreenlightTests: the summary window of the tests near the open files and their results.
function M.tests()
  tests.open()
end

-- :GreenlightCoverage [on|off]: show or hide the signs of the lines no test ran.
function M.coverage(arg)
  local shown = require('greenlight.coverage').toggle(arg)
  if shown ~= nil then commands.notify('lines no test ran: ' .. (shown and 'shown' or 'hidden')) end
end

-- :GreenlightCancel: cancel everything greenlight runs.
function M.cancel()
  commands.cancel(M.clients())
end

-- How long :GreenlightRestart waits for the old servers to exit before it kills them. Their
-- exit takes milliseconds; the tests raise it for sanitizer builds on a loaded machine.
M.restart_wait_ms = 5000

-- :GreenlightRestart: stop every greenlight client, then start again for the buffers they had
-- (re-reading vim.g.greenlight and finding the binary again).
function M.restart()
  local buffers = {}
  local stopping = M.clients()
  for _, client in ipairs(stopping) do
    vim.list_extend(buffers, compat.attached_buffers(client))
    compat.stopping[client.id] = true
    compat.call(client, 'stop')
  end
  -- Wait for the old servers to exit (shutdown + exit) so the new ones do not race them.
  local exited = vim.wait(M.restart_wait_ms, function()
    for _, client in ipairs(stopping) do
      if vim.lsp.get_client_by_id(client.id) then return false end
    end
    return true
  end, 20)
  if not exited then
    for _, client in ipairs(stopping) do compat.call(client, 'stop', true) end
  end
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
    compat.call(client, 'notify', 'workspace/didChangeConfiguration', { settings = { greenlight = config.server_settings(cfg) } })
  end
end

-- Refreshes the lenses of `bufnr` (default: current) now.
function M.refresh_codelens(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.client(bufnr)
  if client then codelens.refresh(client, bufnr) end
end

M.status = progress.status

progress.setup(function() return config.get().progress end)

return M
