-- End to end against the real server: zero-config attach from $PATH, the negotiated
-- capabilities, settings pulled through workspace/configuration, the code action list,
-- codeAction/resolve idempotence, :GreenlightRestart and a clean shutdown.
local H = require('harness')
local compat = require('greenlight.compat')

local function request(client, method, params, bufnr, ms)
  local response
  compat.call(client, 'request', method, params, function(err, result) response = { err = err, result = result } end, bufnr)
  H.wait(ms or 5000, function() return response ~= nil end, method .. ' response')
  if response.err then H.fail(method .. ' failed: ' .. vim.inspect(response.err)) end
  return response.result
end

local function titles(actions)
  return vim.tbl_map(function(a) return a.title end, actions or {})
end

local function find_title(actions, title)
  for _, a in ipairs(actions or {}) do
    if a.title == title then return a end
  end
  return nil
end

H.run(60, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  H.step('a python buffer attaches with no configuration')
  local root = H.tempdir('workspace')
  H.write(root .. '/.greenlight.json', { '{"sandbox": {"timeLimitSeconds": 20}}' })
  H.write(root .. '/calc.py', {
    'def add(a, b):',
    '    """Return the sum of a and b."""',
    '    return a + b',
    '',
    '',
    '# Return the product of a and b.',
    'def mul(a, b):',
    '    pass',
  })
  H.write(root .. '/test_calc.py', {
    'from calc import add',
    '',
    '',
    'def test_add():',
    '    assert add(2, 3) == 5',
  })
  vim.g.greenlight = { settings = { sandbox = { processes = 32 } } }
  local greenlight = require('greenlight')
  vim.cmd('edit ' .. root .. '/calc.py')
  local bufnr = vim.api.nvim_get_current_buf()
  H.eq(vim.bo.filetype, 'python', 'filetype')
  H.wait(5000, function() return greenlight.client(bufnr) ~= nil end, 'the greenlight client to attach')
  local client = greenlight.client(bufnr)
  H.wait(10000, function() return client.initialized == true or client.server_capabilities ~= nil end, 'initialize')
  H.eq(client.config.root_dir, root, 'root_dir (from .greenlight.json)')
  H.eq(client.config.cmd, { vim.fn.exepath('greenlight'), 'lsp' }, 'cmd')

  H.step('negotiated capabilities')
  -- Every gap is listed at once, so a partial server shows everything it still lacks.
  local caps = client.server_capabilities
  local gaps = {}
  local function want(cond, message)
    if not cond then table.insert(gaps, message) end
  end
  -- Neovim 0.7 offers no position encodings, so the server must stay on utf-16.
  if vim.fn.has('nvim-0.10') == 0 then
    want(caps.positionEncoding == nil or caps.positionEncoding == 'utf-16',
      'positionEncoding ' .. vim.inspect(caps.positionEncoding) .. ' but the client offered only utf-16')
    want(client.offset_encoding == 'utf-16', 'client offset encoding ' .. tostring(client.offset_encoding))
  end
  local sync = type(caps.textDocumentSync) == 'table' and caps.textDocumentSync.change or caps.textDocumentSync
  want(sync == 2, 'textDocumentSync.change is ' .. vim.inspect(sync) .. ', expected 2 (incremental)')
  local cap = type(caps.codeActionProvider) == 'table' and caps.codeActionProvider or {}
  want(type(caps.codeActionProvider) == 'table', 'codeActionProvider is not an object: ' .. vim.inspect(caps.codeActionProvider))
  want(cap.resolveProvider == true, 'codeActionProvider.resolveProvider is not true')
  local kinds = cap.codeActionKinds or {}
  for _, kind in ipairs({ 'source.greenlight.runTests', 'refactor.rewrite.greenlight', 'quickfix' }) do
    want(vim.tbl_contains(kinds, kind), 'codeActionKinds lacks ' .. kind .. ' (has ' .. vim.inspect(kinds) .. ')')
  end
  local commands = (caps.executeCommandProvider or {}).commands or {}
  for _, command in ipairs({ 'greenlight.runTests', 'greenlight.cancel' }) do
    want(vim.tbl_contains(commands, command), 'executeCommandProvider lacks ' .. command .. ' (has ' .. vim.inspect(commands) .. ')')
  end
  if #gaps > 0 then H.fail(#gaps .. ' capability gap(s):\n  ' .. table.concat(gaps, '\n  ')) end

  H.step('the server pulls the greenlight section')
  H.wait(5000, function() return (greenlight.stats.configuration_requests[client.id] or 0) >= 1 end,
    'workspace/configuration after initialized')

  H.step('code actions at a function include "Run nearby tests in sandbox"')
  local range = { start = { line = 2, character = 4 }, ['end'] = { line = 2, character = 4 } }
  local uri = vim.uri_from_bufnr(bufnr)
  local actions = request(client, 'textDocument/codeAction',
    { textDocument = { uri = uri }, range = range, context = { diagnostics = {} } }, bufnr)
  local run = find_title(actions, 'Run nearby tests in sandbox')
  H.check(run ~= nil, 'no "Run nearby tests in sandbox" in ' .. vim.inspect(titles(actions)))
  H.eq(run.kind, 'source.greenlight.runTests', 'kind of the run action')
  local only = request(client, 'textDocument/codeAction',
    { textDocument = { uri = uri }, range = range, context = { diagnostics = {}, only = { 'source.greenlight.runTests' } } }, bufnr)
  H.check(find_title(only, 'Run nearby tests in sandbox') ~= nil,
    'only=source.greenlight.runTests lost the action: ' .. vim.inspect(titles(only)))
  for _, a in ipairs(only) do
    H.check(type(a.kind) == 'string' and a.kind:find('^source%.greenlight%.runTests') ~= nil, 'only= returned ' .. vim.inspect(a.kind))
  end

  H.step('codeAction/resolve is idempotent')
  local resolved = request(client, 'codeAction/resolve', run, bufnr)
  H.eq(resolved.title, run.title, 'resolved title')
  H.check(resolved.command ~= nil or resolved.edit ~= nil, 'resolved action has neither command nor edit: ' .. vim.inspect(resolved))
  if resolved.command then H.eq(resolved.command.command, 'greenlight.runTests', 'resolved command') end
  local again = request(client, 'codeAction/resolve', resolved, bufnr)
  H.eq(again, resolved, 'resolving the resolved action')

  H.step('incremental edits keep the server in step')
  -- What the server offers here depends on its copy of the text: the stub's generate action
  -- names the function on that line. A server whose copy drifted (a change lost, applied at
  -- the wrong place, or inserted without removing what it replaced) names another function,
  -- or offers it on another line, or not at all.
  local function generate_titles(line)
    return titles(request(client, 'textDocument/codeAction', {
      textDocument = { uri = uri },
      range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
      context = { diagnostics = {}, only = { 'refactor.rewrite.greenlight' } },
    }, bufnr))
  end
  H.eq(generate_titles(6), { 'Implement mul() stub, verified by tests' }, 'before the edits, line 7')
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '# header', '' })  -- lines inserted above
  vim.api.nvim_buf_set_text(bufnr, 8, 4, 8, 7, { 'times' })  -- a range inside a line replaced
  H.eq(vim.api.nvim_buf_get_lines(bufnr, 8, 9, false), { 'def times(a, b):' }, 'the edited line 9')
  vim.wait(300)
  H.eq(generate_titles(8), { 'Implement times() stub, verified by tests' }, 'after the edits, line 9')
  H.eq(generate_titles(6), {}, 'after the edits, line 7 (blank now)')
  local shifted = request(client, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 4, character = 4 }, ['end'] = { line = 4, character = 4 } },
    context = { diagnostics = {} },
  }, bufnr)
  H.check(find_title(shifted, 'Run nearby tests in sandbox') ~= nil,
    'after an edit: no run action in ' .. vim.inspect(titles(shifted)))

  H.step(':GreenlightRestart starts a new server and re-attaches')
  local old_id = client.id
  H.notifications = {}
  -- The old server (a sanitizer build's exit scans for leaks) gets the scaled time to exit, so
  -- this restart takes the graceful path; the next step takes the kill path.
  greenlight.restart_wait_ms = H.scaled(5000)
  vim.cmd('GreenlightRestart')
  H.wait(10000, function()
    local c = greenlight.client(bufnr)
    return c ~= nil and c.id ~= old_id and c.initialized == true
  end, 'a new initialized client after :GreenlightRestart')
  H.check(vim.lsp.get_client_by_id(old_id) == nil or compat.is_stopped(vim.lsp.get_client_by_id(old_id)), 'old client still running')
  for _, n in ipairs(H.notifications) do
    H.check(not n.msg:find('server exited with code', 1, true), 'unclean exit on restart: ' .. n.msg)
  end

  H.step(':GreenlightRestart replaces a server too slow to exit: killed, a new one attached')
  -- SIGSTOP keeps the old server from answering shutdown: the plugin's wait ends, its SIGTERM
  -- stays pending until SIGCONT, and meanwhile the new client must not be the old one reused
  -- (is_stopped() is still false for it then).
  old_id = greenlight.client(bufnr).id
  local function child_pids() return vim.fn.systemlist({ 'pgrep', '-P', tostring(vim.fn.getpid()) }) end
  -- The server replaced by the restart above may still be on its way out (a sanitizer build's
  -- exit scans for leaks): wait until the new server is Neovim's only child.
  local children
  H.wait(5000, function()
    children = child_pids()
    return #children == 1
  end, 'the server to be Neovim\'s only child process')
  vim.fn.system({ 'kill', '-STOP', children[1] })
  greenlight.restart_wait_ms = 200
  H.notifications = {}
  -- SIGCONT whatever happens: a failed restart must not leave a stopped server behind.
  local restarted, err = pcall(vim.cmd, 'GreenlightRestart')
  vim.fn.system({ 'kill', '-CONT', children[1] })
  H.check(restarted, ':GreenlightRestart failed: ' .. tostring(err))
  H.wait(10000, function()
    local c = greenlight.client(bufnr)
    return c ~= nil and c.id ~= old_id and c.initialized == true
  end, 'a new initialized client after restarting past a stuck server')
  H.wait(5000, function() return vim.lsp.get_client_by_id(old_id) == nil end, 'the stuck server to be gone')
  H.check(not vim.tbl_contains(child_pids(), children[1]), 'the stuck server still runs')
  -- Its end by the plugin's SIGTERM is not reported (the check after the next step sees any late one).
  H.eq(#H.notified('server exited with code'), 0, 'exit reports')
  greenlight.restart_wait_ms = H.scaled(5000)

  H.step('shutdown + exit: exit code 0')
  -- The plugin reports a non-zero exit code or a signal through vim.notify (on_exit).
  client = greenlight.client(bufnr)
  compat.call(client, 'stop')
  H.wait(5000, function() return compat.is_stopped(client) end, 'the client to stop')
  vim.wait(500)
  for _, n in ipairs(H.notifications) do
    H.check(not n.msg:find('server exited with code', 1, true), 'unclean exit: ' .. n.msg)
  end
end)
