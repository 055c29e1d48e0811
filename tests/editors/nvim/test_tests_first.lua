-- Tests first (issue 36) from the editor's side, against the server named by GREENLIGHT_TEST_BIN
-- (editors.nvim*.tests_first: the scripted fake, whose `parse_duration` has no tests, so generate
-- answers `tests_proposed`, then, given `tests`, lands the test file and the code in one
-- workspace/applyEdit with a CreateFile; the same scenario runs against the real server with
-- the scripted model's tests for parse_duration): what is expected of the proposal is read
-- from it (where the file goes, which test is flagged), never assumed.
-- the proposal opens in the preview window (proposed text, filetype, the flagged test marked);
-- cancel (q) sends nothing and writes nothing; accept (a) sends exactly the proposed text and
-- both files exist afterwards, the code undone by one `u`; edit (e, then :w) sends the edited
-- text, which is what lands; <CR> offers the same choices through vim.ui.select; an existing
-- test file (fake only) is untouched on disk until accept, then its whole text is replaced.
local H = require('harness')
local W = require('workspace')

H.run(120, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  local root = H.tempdir('tests-first')
  H.write(root .. '/.git/HEAD', { 'ref: refs/heads/main' })
  H.write(root .. '/.greenlight.json', { '{}' })
  local source = {
    'import re',
    '',
    '',
    '# parse_duration(text): "1h30m" -> 5400 seconds; "90s" -> 90; raises ValueError on junk',
    'def parse_duration(text):',
    '    raise NotImplementedError',
  }
  H.write(root .. '/durations.py', source)
  local log = W.log_to(root)
  local tests_first = require('greenlight.tests_first')
  local stub_body = { '    raise NotImplementedError' }

  H.step('attach')
  local bufnr, client = H.open(root .. '/durations.py')
  local fake = H.is_fake(client)
  -- The generate requests the plugin sent: from the fake's log, or counted from the plugin's own
  -- record of responses (the real server keeps no log for us).
  local commands = require('greenlight.commands')
  local sent_args = {}
  local execute = commands.execute
  commands.execute = function(c, command, arguments, b)
    if command == 'greenlight.generate' then table.insert(sent_args, vim.deepcopy(arguments)) end
    return execute(c, command, arguments, b)
  end
  local function generates()
    if fake then
      -- What went over the wire is what the plugin meant to send.
      local received = H.fake_sent(log, 'workspace/executeCommand', 'greenlight.generate')
      H.eq(#received, #sent_args, 'requests the fake received')
      if #received > 0 then H.eq(received[#received].params.arguments, sent_args[#sent_args], 'the last request on the wire') end
    end
    return sent_args
  end
  local function count_tests(text)
    local n = 0
    for _ in text:gmatch('\ndef test_') do n = n + 1 end
    if text:find('^def test_') then n = n + 1 end
    return n
  end
  -- Runs :GreenlightGenerate on the comment and waits for the preview; returns the proposal
  -- response and the preview.
  local function propose()
    vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
    W.cursor_on_comment(bufnr, 'parse_duration')
    local mark = H.results_mark()
    vim.cmd('GreenlightGenerate')
    local response = H.wait_result('greenlight.generate', mark, 20000)
    H.check(response.err == nil, 'generate failed: ' .. vim.inspect(response.err))
    H.eq(response.result.status, 'tests_proposed', 'status')
    H.eq(response.result.applied, false, 'applied')
    H.wait(10000, function() return tests_first.current ~= nil end, 'the preview window')
    return response, tests_first.current
  end

  H.step('the proposal: preview window with the proposed text, its filetype, the flagged test marked')
  local sent_before = #generates()
  H.notifications = {}
  local response, current = propose()
  local proposed = response.result.tests
  local tests_uri = proposed.uri
  local tests_path = vim.uri_to_fname(tests_uri)
  local tests_dir = vim.fn.fnamemodify(tests_path, ':h')
  H.eq(proposed.exists, false, 'tests.exists')
  H.check(tests_path:sub(1, #root + 1) == root .. '/', 'the test file is in the workspace: ' .. tests_path)
  H.eq(vim.api.nvim_get_current_win(), current.win, 'the preview has the focus')
  H.eq(table.concat(H.lines(current.buf), '\n') .. '\n', proposed.text, 'the preview holds the proposed text')
  H.eq(vim.bo[current.buf].filetype, 'python', 'filetype')
  H.eq(vim.bo[current.buf].modifiable, false, 'read-only until Edit')
  H.eq(#proposed.flagged, 1, 'one test flagged (the scripted proposals have one that passes on the stub)')
  local flagged = proposed.flagged[1]
  local placed = vim.fn.sign_getplaced(current.buf, { group = 'greenlight_tests_first' })[1].signs
  H.eq(#placed, 1, 'one flagged sign')
  H.eq(placed[1].lnum, flagged.line, 'the sign is on the flagged test')
  H.eq(H.lines(current.buf)[flagged.line], 'def ' .. flagged.name .. '():', 'the flagged line')
  H.check(#H.notified('1 test passes on the stub: ' .. flagged.name) == 1,
    'the flagged test is named in the notification: ' .. vim.inspect(H.notifications))
  H.check(#H.notified('(new file)') == 1, 'the notification says the file is new')

  H.step('cancel (q): nothing sent, nothing written, the preview gone')
  vim.api.nvim_feedkeys('q', 'x', false)
  H.wait(5000, function() return tests_first.last ~= nil and tests_first.last.action == 'cancel' end, 'the cancel')
  H.eq(tests_first.current, nil, 'no preview')
  H.check(not vim.api.nvim_win_is_valid(current.win), 'the preview window is closed')
  vim.wait(H.scaled(300))
  H.eq(#generates(), sent_before + 1, 'only the proposing request was sent')
  H.eq(vim.fn.filereadable(tests_path), 0, 'no test file on disk')
  H.check(tests_dir == root or vim.fn.isdirectory(tests_dir) == 0, 'no tests folder')
  H.eq(H.lines(bufnr), source, 'the source is unchanged')
  H.eq(vim.bo[bufnr].modified, false, 'the source buffer is not modified')

  H.step('<CR>: the same choices through vim.ui.select (Cancel picked)')
  propose()
  local offered
  local select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    offered = items
    on_choice('Cancel')
  end
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
  vim.ui.select = select
  H.eq(offered, { 'Accept tests and generate', 'Edit', 'Cancel' }, 'the choices')
  H.eq(tests_first.last.action, 'cancel', 'cancelled through the menu')
  H.eq(vim.fn.filereadable(tests_path), 0, 'no test file on disk')

  H.step('accept (a): exactly the proposed text is sent; test file and code land')
  sent_before = #generates()
  response = propose()
  local mark = H.results_mark()
  vim.api.nvim_feedkeys('a', 'x', false)
  local landed = H.wait_result('greenlight.generate', mark, 60000)
  H.check(landed.err == nil, 'the accepted generate failed: ' .. vim.inspect(landed.err))
  H.eq(landed.result.status, 'passed', 'status after accept')
  H.eq(landed.result.applied, true, 'applied')
  H.eq(landed.result.tests.count, count_tests(response.result.tests.text), 'tests.count')
  H.eq(landed.result.tests.new, true, 'tests.new')
  local sent = generates()
  H.eq(#sent, sent_before + 2, 'the proposal and the accepted run')
  local accepted_args = sent[#sent][1]
  H.eq(accepted_args.tests, { uri = tests_uri, text = response.result.tests.text }, 'the accepted tests')
  H.eq(accepted_args.uri, vim.uri_from_bufnr(bufnr), 'the same uri')
  H.eq(accepted_args.position, sent[#sent - 1][1].position, 'the same position')
  H.eq(vim.fn.filereadable(tests_path), 1, 'the test file exists (CreateFile, folder made)')
  local tests_buf = vim.fn.bufnr(tests_path)
  H.check(tests_buf > 0, 'the test file has a buffer')
  H.eq(table.concat(H.lines(tests_buf), '\n') .. '\n', response.result.tests.text, 'the test file holds the tests')
  H.check(not vim.deep_equal(W.body(bufnr, 'parse_duration'), stub_body), 'the stub was replaced: ' .. vim.inspect(H.lines(bufnr)))
  if fake then
    H.eq(W.body(bufnr, 'parse_duration'), { "    return int(text[:-1]) if text.endswith('s') else 5400" }, 'the code')
  end
  vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
  vim.cmd('normal! u')
  H.eq(H.lines(bufnr), source, 'one `u` undoes the code')
  H.notifications = {}

  H.step('edit (e, then :w): the edited text is what is sent and what lands')
  -- A fresh start: no test file, no buffer for it.
  vim.cmd('bwipeout! ' .. tests_buf)
  vim.fn.delete(tests_path)
  if tests_dir ~= root then vim.fn.delete(tests_dir, 'rf') end
  sent_before = #generates()
  response, current = propose()
  vim.api.nvim_feedkeys('e', 'x', false)
  H.eq(vim.bo[current.buf].modifiable, true, 'editable after e')
  -- The flagged test asserts nothing: the user replaces it with a real one.
  local lines = H.lines(current.buf)
  local at = H.line_of(current.buf, 'def ' .. flagged.name .. '():')
  vim.api.nvim_buf_set_lines(current.buf, at - 1, #lines, false, { 'def test_minutes():', '    assert parse_duration("2m") == 120' })
  local edited = table.concat(H.lines(current.buf), '\n') .. '\n'
  H.check(edited ~= response.result.tests.text, 'the text was edited')
  mark = H.results_mark()
  vim.api.nvim_set_current_win(current.win)
  vim.cmd('write')
  landed = H.wait_result('greenlight.generate', mark, 60000)
  H.check(landed.err == nil, 'the accepted generate failed: ' .. vim.inspect(landed.err))
  H.eq(landed.result.status, 'passed', 'status after the edited accept')
  H.eq(landed.result.tests.count, count_tests(edited), 'tests.count of the edited file')
  sent = generates()
  H.eq(#sent, sent_before + 2, 'the proposal and the accepted run')
  H.eq(sent[#sent][1].tests, { uri = tests_uri, text = edited }, 'the edited tests are sent')
  H.eq(tests_first.last.edited, true, 'recorded as edited')
  tests_buf = vim.fn.bufnr(tests_path)
  H.eq(table.concat(H.lines(tests_buf), '\n') .. '\n', edited, 'the edited tests land')
  H.eq(vim.fn.filereadable(tests_path), 1, 'the test file exists')
  H.check(#vim.tbl_filter(function(n) return n.level == vim.log.levels.ERROR end, H.notifications) == 0,
    'no error: ' .. vim.inspect(H.notifications))

  -- (The real server proposes no tests once the file tests the target: only the fake's script
  -- has a test file that exists and tests something else.)
  if fake then
    H.step('an existing test file (fake): untouched until accept, then its whole text replaced')
    vim.cmd('bwipeout! ' .. tests_buf)
    vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
    vim.cmd('normal! u')
    H.eq(H.lines(bufnr), source, 'the source back to the stub')
    H.write(tests_path, { 'import os', '', '', 'def test_other():', '    assert os.sep' })
    local original = vim.fn.readfile(tests_path)
    H.notifications = {}
    response, current = propose()
    H.eq(response.result.tests.exists, true, 'tests.exists')
    H.eq(response.result.tests.original, table.concat(original, '\n') .. '\n', 'tests.original')
    H.eq(#H.notified('(new file)'), 0, 'not called a new file')
    H.eq(vim.fn.readfile(tests_path), original, 'the file on disk before accept')
    -- d: the current text beside the proposal, both in diff mode.
    vim.api.nvim_feedkeys('d', 'x', false)
    local owin = current.original_win()
    H.check(owin ~= nil and vim.api.nvim_win_is_valid(owin), 'd opened the current text')
    H.eq(H.lines(vim.api.nvim_win_get_buf(owin)), original, 'the current text')
    H.eq(vim.wo[owin].diff, true, 'diff mode (current)')
    H.eq(vim.wo[current.win].diff, true, 'diff mode (proposal)')
    H.eq(vim.api.nvim_get_current_win(), current.win, 'the proposal keeps the focus')
    mark = H.results_mark()
    vim.api.nvim_feedkeys('a', 'x', false)
    landed = H.wait_result('greenlight.generate', mark, 20000)
    H.eq(landed.result.status, 'passed', 'status')
    H.eq(landed.result.tests.new, false, 'tests.new')
    tests_buf = vim.fn.bufnr(tests_path)
    H.eq(table.concat(H.lines(tests_buf), '\n') .. '\n', response.result.tests.text, 'the whole text replaced')
    H.eq(vim.fn.readfile(tests_path), original, 'the file on disk is not truncated (the edit stays unsaved)')
    H.check(not vim.api.nvim_win_is_valid(owin), 'the current text closed with the proposal')
  end
end)
