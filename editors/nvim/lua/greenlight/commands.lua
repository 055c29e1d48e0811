-- The commands that make the server work: run tests, generate, fix, cancel. Every
-- workspace/executeCommand goes through execute(), which gives it a workDoneToken (so its
-- $/progress is ours and cancellable), keeps it in `pending` for :GreenlightCancel, and turns
-- the result into at most one message: the server already says most things itself
-- ($/progress end, window/showMessage, window/showMessageRequest), so a message is added only
-- when the server said nothing that the user would otherwise miss.
local compat = require('greenlight.compat')
local config = require('greenlight.config')
local progress = require('greenlight.progress')
local diagnostics = require('greenlight.diagnostics')
local apply = require('greenlight.apply')
local tests_first = require('greenlight.tests_first')

local M = {}

-- pending[client_id][request_id] = { command, token, bufnr }
M.pending = {}
-- messages[client_id] = how many window/showMessage(Request)s the server sent so far.
M.messages = {}
-- The last responses, newest last (bounded): { client_id, command, err, result }. For tests
-- and for a user who wants the full `generate --json` object:
-- :lua =require('greenlight.commands').results
M.results = {}
local kResultsLimit = 20

local token_counter = 0

local function notify(msg, level)
  level = level or vim.log.levels.INFO
  local text = 'greenlight: ' .. msg
  -- An ERROR notify runs nvim_err_writeln, which inside an autocmd or a :command called
  -- through vim.cmd() becomes a Lua error with a stack trace: always show it from the loop.
  if level >= vim.log.levels.ERROR then
    vim.schedule(function() vim.notify(text, level) end)
  else
    vim.notify(text, level)
  end
end
M.notify = notify

-- window/showMessage: shown with vim.notify at the message's level (Neovim's handler writes
-- "LSP[greenlight][Warning] ..." to the message area, invisible to notification UIs) and
-- counted, so the result of a command adds no second message for the same thing.
local kLevels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }
function M.show_message(_, result, ctx)
  M.messages[ctx.client_id] = (M.messages[ctx.client_id] or 0) + 1
  if type(result) ~= 'table' or type(result.message) ~= 'string' then return vim.NIL end
  local level = kLevels[result.type] or vim.log.levels.INFO
  local text = result.message:find('^greenlight') and result.message or ('greenlight: ' .. result.message)
  if level >= vim.log.levels.ERROR then
    vim.schedule(function() vim.notify(text, level) end)
  else
    vim.notify(text, level)
  end
  return vim.NIL
end

-- window/showMessageRequest: counted, then Neovim's own handler offers the actions
-- (vim.ui.select on 0.10, inputlist on 0.7) and answers with the chosen one.
function M.show_message_request(err, result, ctx, handler_config)
  M.messages[ctx.client_id] = (M.messages[ctx.client_id] or 0) + 1
  return vim.lsp.handlers['window/showMessageRequest'](err, result, ctx, handler_config)
end

local function record(client_id, command, err, result)
  table.insert(M.results, { client_id = client_id, command = command, err = err, result = result })
  if #M.results > kResultsLimit then table.remove(M.results, 1) end
end

-- What to tell the user about a generate/fix result, or nil.
local function describe(result, client_id, messages_before)
  if type(result) ~= 'table' then return nil end
  local name = type(result.target) == 'table' and result.target.name or nil
  local subject = name and (name .. '()') or 'the code'
  local server_spoke = (M.messages[client_id] or 0) > messages_before
  local status = result.status
  if status == 'passed' then
    if result.applied then
      if config.get().progress == 'off' then
        local s = type(result.summary) == 'table' and result.summary or {}
        return string.format('%s: %s/%s tests passed; applied (u undoes it)', subject, tostring(s.passed or '?'),
          tostring((s.passed or 0) + (s.failed or 0))), vim.log.levels.INFO
      end
      return nil
    end
    -- The server says why when the target changed while generating.
    if server_spoke then return nil end
    local last = apply.last[client_id]
    local why = last and last.applied == false and last.failureReason or 'the edit was not applied'
    return string.format('%s passed its tests but nothing was applied: %s', subject, why), vim.log.levels.WARN
  elseif status == 'unverified' then
    if result.applied then return nil end
    return string.format('no tests found for %s: the code is unverified and was not applied', subject), vim.log.levels.WARN
  elseif status == 'failed' then
    -- The server offers "Show best attempt" / "Retry with more rounds" (showMessageRequest).
    return nil
  elseif status == 'tests_proposed' then
    -- The preview (tests_first.lua) says it all.
    return nil
  elseif status == 'cancelled' then
    return 'cancelled; nothing applied', vim.log.levels.INFO
  elseif status == 'error' then
    if server_spoke then return nil end
    return tostring(result.error or 'the server reported an error'), vim.log.levels.ERROR
  end
  return nil
end

-- Sends workspace/executeCommand `command` with `arguments` and tracks it. Returns the
-- request id or nil.
function M.execute(client, command, arguments, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  token_counter = token_counter + 1
  local token = string.format('greenlight.nvim/%d/%d', vim.fn.getpid(), token_counter)
  local messages_before = M.messages[client.id] or 0
  local request_id
  local ok
  ok, request_id = compat.call(client, 'request', 'workspace/executeCommand',
    { command = command, arguments = arguments or {}, workDoneToken = token },
    function(err, result)
      if M.pending[client.id] then M.pending[client.id][request_id] = nil end
      progress.finish(client.id, token)
      record(client.id, command, err, result)
      -- (Neovim never calls this for -32800 RequestCancelled: it drops those responses.)
      if err then
        notify(command .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        return
      end
      if command == 'greenlight.generate' or command == 'greenlight.fix' then
        local msg, level = describe(result, client.id, messages_before)
        if msg then notify(msg, level) end
      end
      if command == 'greenlight.generate' and type(result) == 'table' and result.status == 'tests_proposed' then
        M.review_tests(client, arguments, result, bufnr)
      end
    end, bufnr)
  if ok and request_id then
    M.pending[client.id] = M.pending[client.id] or {}
    M.pending[client.id][request_id] = { command = command, token = token, bufnr = bufnr }
    return request_id
  end
  notify('could not send ' .. command .. ' (the server is not running?)', vim.log.levels.ERROR)
  return nil
end

-- Tests first (issue 36): shows the proposed tests; accepting runs the same generate again with
-- the accepted text as `tests`. A server that proposes again although it was given tests is
-- not asked again (that could loop).
function M.review_tests(client, arguments, result, bufnr)
  local first = type(arguments) == 'table' and arguments[1] or nil
  if type(first) == 'table' and first.tests ~= nil then
    return notify('the server proposed tests again instead of using the accepted ones; nothing written', vim.log.levels.ERROR)
  end
  vim.schedule(function()
    tests_first.review(result, bufnr, function(text)
      local accepted = vim.deepcopy(arguments or {})
      if type(accepted[1]) ~= 'table' then accepted[1] = {} end
      accepted[1].tests = { uri = result.tests.uri, text = text }
      M.execute(client, 'greenlight.generate', accepted, bufnr)
    end)
  end)
end

-- client.commands entries: code actions and lenses that carry our commands (through
-- vim.lsp.buf.code_action() or vim.lsp.codelens.run()) take the same path as :Greenlight*.
function M.client_commands()
  local out = {}
  for _, name in ipairs({ 'greenlight.runTests', 'greenlight.generate', 'greenlight.fix' }) do
    out[name] = function(command, ctx)
      local client = compat.get_client(ctx.client_id)
      if client then M.execute(client, command.command, command.arguments, ctx.bufnr) end
    end
  end
  return out
end

local function request(client, method, params, bufnr, callback)
  compat.call(client, 'request', method, params, function(err, result)
    if err then return notify(method .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
    callback(result)
  end, bufnr)
end

-- Runs a code action (resolving it first when it has neither edit nor command).
local function run_action(client, action, bufnr, extra)
  local function go(resolved)
    if resolved.edit then vim.lsp.util.apply_workspace_edit(resolved.edit, client.offset_encoding) end
    local command = resolved.command
    if type(command) == 'table' and type(command.command) == 'string' then
      local arguments = command.arguments or {}
      if extra and type(arguments[1]) == 'table' then
        arguments = vim.deepcopy(arguments)
        for k, v in pairs(extra) do arguments[1][k] = v end
      end
      M.execute(client, command.command, arguments, bufnr)
    end
  end
  if not action.edit and not action.command then
    request(client, 'codeAction/resolve', action, bufnr, go)
  else
    go(action)
  end
end

local function pick(client, actions, prompt, bufnr, extra)
  if #actions == 1 then return run_action(client, actions[1], bufnr, extra) end
  for _, a in ipairs(actions) do
    if a.isPreferred then return run_action(client, a, bufnr, extra) end
  end
  vim.ui.select(actions, { prompt = prompt, format_item = function(a) return a.title end }, function(choice)
    if choice then run_action(client, choice, bufnr, extra) end
  end)
end

function M.require_client(client_for)
  local client = client_for(0)
  if not client then
    notify(string.format('no greenlight server for this buffer (filetype "%s"); see :checkhealth greenlight', vim.bo.filetype),
      vim.log.levels.WARN)
  end
  return client
end

local function cursor_params(client)
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  return params.textDocument, params.position
end

function M.run_tests(client)
  local doc, position = cursor_params(client)
  return M.execute(client, 'greenlight.runTests', { { uri = doc.uri, position = position } })
end

-- extra: { rounds = N, candidates = N } merged into the command's argument.
function M.generate(client, extra)
  local bufnr = vim.api.nvim_get_current_buf()
  local doc, position = cursor_params(client)
  local params = { textDocument = doc, range = { start = position, ['end'] = position },
    context = { diagnostics = {}, only = { 'refactor.rewrite.greenlight' } } }
  request(client, 'textDocument/codeAction', params, bufnr, function(actions)
    local ours = vim.tbl_filter(function(a)
      return type(a.kind) == 'string' and a.kind:find('^refactor%.rewrite%.greenlight') ~= nil
    end, actions or {})
    if #ours == 0 then
      return notify('nothing to generate here: put the cursor on a comment that describes the code to write, or on a stub')
    end
    pick(client, ours, 'greenlight: generate', bufnr, extra)
  end)
end

function M.fix(client)
  local bufnr = vim.api.nvim_get_current_buf()
  local d = diagnostics.at_cursor(client, bufnr, vim.api.nvim_win_get_cursor(0))
  if not d then
    return notify('no greenlight failure on this line: :GreenlightFix works on a failing test, runtime error, timeout, '
      .. 'memory limit or compile error diagnostic (run :GreenlightRunTests first)')
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = d.range,
    context = { diagnostics = { d }, only = { 'quickfix' } } }
  request(client, 'textDocument/codeAction', params, bufnr, function(actions)
    local fixes = vim.tbl_filter(function(a)
      if type(a.command) == 'table' then return a.command.command == 'greenlight.fix' end
      return a.kind == 'quickfix' and a.edit == nil and a.command == nil
    end, actions or {})
    if #fixes == 0 then return notify('the server offers no fix for this diagnostic: ' .. (d.message or '')) end
    pick(client, fixes, 'greenlight: fix', bufnr)
  end)
end

-- Cancels everything greenlight runs: our requests in flight ($/cancelRequest), the server's
-- cancellable progress (window/workDoneProgress/cancel) and, with greenlight.cancel, whatever
-- else it runs (a run on save). Says how much was cancelled.
function M.cancel(clients)
  if #clients == 0 then return notify('no greenlight server is running') end
  local remaining = #clients
  local total = 0
  for _, client in ipairs(clients) do
    progress.cancel_all(client)
    for request_id, p in pairs(M.pending[client.id] or {}) do
      compat.call(client, 'cancel_request', request_id)
      -- The server answers -32800, which Neovim drops before any callback: record it here.
      progress.finish(client.id, p.token)
      record(client.id, p.command, { code = -32800, message = 'cancelled by :GreenlightCancel' }, nil)
      total = total + 1
    end
    M.pending[client.id] = nil
    compat.call(client, 'request', 'workspace/executeCommand', { command = 'greenlight.cancel', arguments = {} },
      function(err, result)
        if not err and type(result) == 'table' and type(result.cancelled) == 'number' then total = total + result.cancelled end
        remaining = remaining - 1
        if remaining == 0 then
          notify(total == 0 and 'nothing to cancel'
            or string.format('cancelled %d task%s; nothing applied', total, total == 1 and '' or 's'))
        end
      end)
  end
end

function M.forget(client_id)
  M.pending[client_id] = nil
  M.messages[client_id] = nil
  apply.last[client_id] = nil
end

return M
