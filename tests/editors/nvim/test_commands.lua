-- The plugin's commands and protocol plumbing, against the scripted fake server
-- (tests/editors/fake), which logs every message it receives: what :GreenlightRunTests,
-- :GreenlightGenerate and :GreenlightCancel send, the workspace/configuration answer, and
-- how $/progress is shown.
local H = require('harness')

local log_path

local function received()
  return H.fake_messages(log_path, 'in')
end

-- Messages the fake received with `method` (and, for executeCommand, `command`).
local function sent(method, command)
  return vim.tbl_filter(function(m)
    return m.method == method and (command == nil or (m.params and m.params.command == command))
  end, received())
end

-- The answers the plugin gave to the fake's requests with `prefix` ids.
local function answers()
  local out = {}
  for _, m in ipairs(received()) do
    if m.method == nil and m.id ~= nil then table.insert(out, m) end
  end
  return out
end

H.run(60, function()
  local root = H.tempdir('commands')
  log_path = root .. '/fake-log.jsonl'
  vim.env.GREENLIGHT_FAKE_LOG = log_path
  H.write(root .. '/.git/HEAD', { 'ref: refs/heads/main' })
  H.write(root .. '/calc.py', {
    'def add(a, b):',
    '    return a + b',
    '',
    '# Return the product of a and b.',
    'def mul(a, b):',
    '    pass  # slow',
    'ü = "é"  # non-ASCII: positions are utf-16',
  })
  vim.g.greenlight = {
    progress = 'echo',
    settings = { provider = 'openai', sandbox = { timeLimitSeconds = 3 }, tests = { command = vim.NIL } },
  }
  local greenlight = require('greenlight')
  local progress = require('greenlight.progress')

  H.step('attach and initialize with the settings as initializationOptions')
  vim.cmd('edit ' .. root .. '/calc.py')
  local bufnr = vim.api.nvim_get_current_buf()
  H.wait(5000, function()
    local c = greenlight.client(bufnr)
    return c ~= nil and c.initialized == true
  end, 'an initialized client')
  local client = greenlight.client(bufnr)
  H.eq(client.config.root_dir, root, 'root_dir from .git')
  local init = sent('initialize')[1]
  -- Neovim 0.7 handles both but advertises neither; the plugin must.
  H.eq(init.params.capabilities.workspace.configuration, true, 'capabilities.workspace.configuration')
  H.eq(init.params.capabilities.workspace.workspaceEdit.documentChanges, true, 'capabilities.workspace.workspaceEdit.documentChanges')
  H.eq(init.params.capabilities.window.workDoneProgress, true, 'capabilities.window.workDoneProgress')
  H.eq(init.params.initializationOptions, vim.json.decode('{"provider":"openai","sandbox":{"timeLimitSeconds":3},"tests":{"command":null}}'),
    'initializationOptions')

  H.step('workspace/configuration is answered from vim.g.greenlight, read fresh')
  H.wait(3000, function() return #answers() >= 1 end, 'the configuration answer')
  H.eq(answers()[1].result, { vim.json.decode('{"provider":"openai","sandbox":{"timeLimitSeconds":3},"tests":{"command":null}}') },
    'configuration answer')
  vim.g.greenlight = { settings = { model = 'm2' } }
  greenlight.reload_settings()
  H.wait(3000, function() return #answers() >= 2 end, 'the second configuration answer')
  H.eq(answers()[2].result, { { model = 'm2' } }, 'configuration answer after reload_settings()')
  vim.g.greenlight = { settings = {} }
  greenlight.reload_settings()
  H.wait(3000, function() return #answers() >= 3 end, 'the third configuration answer')
  H.eq(vim.json.encode(answers()[3].result), '[{}]', 'empty settings answer as an object')

  H.step(':GreenlightRunTests sends greenlight.runTests with the cursor position')
  -- Other progress UIs see greenlight's progress through Neovim: LspProgress (0.10) or
  -- User LspProgressUpdate (0.7).
  local seen_by_others = 0
  if vim.fn.has('nvim-0.10') == 1 then
    vim.api.nvim_create_autocmd('LspProgress', { callback = function(args)
      if args.data and args.data.client_id == greenlight.client(bufnr).id then seen_by_others = seen_by_others + 1 end
    end })
  else
    vim.api.nvim_create_autocmd('User', { pattern = 'LspProgressUpdate', callback = function()
      seen_by_others = seen_by_others + 1
    end })
  end
  vim.api.nvim_win_set_cursor(0, { 2, 11 })
  vim.cmd('GreenlightRunTests')
  H.wait(5000, function() return #sent('workspace/executeCommand', 'greenlight.runTests') >= 1 end, 'executeCommand')
  local run = sent('workspace/executeCommand', 'greenlight.runTests')[1]
  H.eq(run.params.arguments, { { uri = vim.uri_from_bufnr(bufnr), position = { line = 1, character = 11 } } }, 'runTests arguments')
  H.wait(5000, function()
    for _, h in ipairs(progress.history) do
      if h.value.kind == 'end' then return true end
    end
    return false
  end, 'progress to end')
  local kinds = vim.tbl_map(function(h) return h.value.kind end, progress.history)
  H.eq(kinds, { 'begin', 'report', 'end' }, 'progress kinds')
  H.eq(seen_by_others, 3, 'progress events Neovim itself published')
  H.eq(greenlight.status(), '', 'status() after the end')

  H.step('positions are utf-16 on a non-ASCII line')
  vim.api.nvim_win_set_cursor(0, { 7, #'ü = "é' }) -- byte column 8, after é; utf-16 column 6
  vim.cmd('GreenlightRunTests')
  H.wait(5000, function() return #sent('workspace/executeCommand', 'greenlight.runTests') >= 2 end, 'second executeCommand')
  H.eq(sent('workspace/executeCommand', 'greenlight.runTests')[2].params.arguments[1].position, { line = 6, character = 6 },
    'utf-16 position')

  H.step(':GreenlightCancel cancels running work')
  vim.api.nvim_win_set_cursor(0, { 6, 4 })
  progress.history = {}
  vim.cmd('GreenlightRunTests')
  H.wait(5000, function() return greenlight.status():find('50%', 1, true) ~= nil end, 'the slow run to report 50%')
  H.eq(greenlight.status(), 'greenlight: Running tests 50%: test_add', 'status() while running')
  local slow_run = sent('workspace/executeCommand', 'greenlight.runTests')[3]
  H.check(type(slow_run.params.workDoneToken) == 'string', 'no workDoneToken: ' .. vim.inspect(slow_run.params))
  vim.cmd('GreenlightCancel')
  H.wait(5000, function() return #sent('window/workDoneProgress/cancel') >= 1 end, 'window/workDoneProgress/cancel')
  H.eq(sent('window/workDoneProgress/cancel')[1].params.token, slow_run.params.workDoneToken, 'the cancelled token')
  H.wait(5000, function() return #sent('workspace/executeCommand', 'greenlight.cancel') >= 1 end, 'greenlight.cancel')
  H.wait(5000, function() return #sent('$/cancelRequest') >= 1 end, '$/cancelRequest for the pending run')
  H.eq(sent('$/cancelRequest')[1].params.id, slow_run.id, 'the cancelled request')
  H.wait(5000, function() return greenlight.status() == '' end, 'status() to clear after the cancel')
  H.wait(5000, function() return #H.notified('cancelled 1 task') == 1 end, 'the "cancelled 1 task" message')
  for _, n in ipairs(H.notifications) do
    H.check(not n.msg:find('greenlight.runTests:', 1, true), 'a cancelled run was reported as an error: ' .. n.msg)
  end
  H.notifications = {}
  vim.cmd('GreenlightCancel')
  H.wait(5000, function() return #H.notified('nothing to cancel') == 1 end, 'the "nothing to cancel" message')

  H.step(':GreenlightGenerate asks for the generate action at the cursor and runs its command')
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  vim.cmd('GreenlightGenerate')
  H.wait(5000, function() return #sent('workspace/executeCommand', 'greenlight.generate') >= 1 end, 'greenlight.generate')
  local asked = vim.tbl_filter(function(m)
    return m.params.context.only and m.params.context.only[1] == 'refactor.rewrite.greenlight'
  end, sent('textDocument/codeAction'))
  H.eq(#asked, 1, 'codeAction requests with only=refactor.rewrite.greenlight')
  H.eq(asked[1].params.range, { start = { line = 3, character = 0 }, ['end'] = { line = 3, character = 0 } }, 'requested range')
  local generate = sent('workspace/executeCommand', 'greenlight.generate')[1]
  H.eq(generate.params.arguments, { { uri = vim.uri_from_bufnr(bufnr), position = { line = 3, character = 0 } } },
    'generate arguments (the action\'s command, as the server made it)')
  H.check(type(generate.params.workDoneToken) == 'string', 'generate has no workDoneToken')
  -- The server's versioned documentChanges edit lands in the buffer and is acknowledged.
  H.wait(5000, function()
    return vim.api.nvim_buf_get_lines(bufnr, 5, 6, false)[1] == '    return a * b'
  end, 'the generated line in the buffer (workspace/applyEdit)')
  -- nvim edits the buffer before its reply reaches the fake's log, so wait for the reply.
  local function applied_answers()
    return vim.tbl_filter(function(m) return type(m.result) == 'table' and m.result.applied ~= nil end, answers())
  end
  H.wait(5000, function() return #applied_answers() >= 1 end, 'the workspace/applyEdit answer')
  local acks = applied_answers()
  H.eq(#acks, 1, 'workspace/applyEdit answers')
  H.eq(acks[1].result.applied, true, 'applyEdit applied')
  H.notifications = {}
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('GreenlightGenerate')
  H.wait(3000, function() return #H.notifications >= 1 end, 'the "nothing to generate here" message')
  H.contains(H.notifications[1].msg, 'nothing to generate here', 'message')
  H.notifications = {}
  vim.cmd('GreenlightGenerate rounds=x')
  H.eq(#H.notified('bad argument "rounds=x"'), 1, 'a bad :GreenlightGenerate argument is reported')

  H.step('commands in a buffer without greenlight explain themselves')
  vim.cmd('enew')
  H.notifications = {}
  vim.cmd('GreenlightRunTests')
  H.eq(#H.notifications, 1, 'notifications')
  H.contains(H.notifications[1].msg, 'no greenlight server for this buffer', 'message')
end)
