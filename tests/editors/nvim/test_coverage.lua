-- Coverage in Neovim (issue 35), against the scripted fake server: a run's finished
-- greenlight/testResults carries `coverage` (the fake: every code line of calc.py run once, the
-- lines ending in `# special` never). The lines no test ran get GreenlightNotRun signs in the
-- group greenlight_coverage, the summary says "calc.py · M/N lines run" as the wire said and
-- <CR> there goes to the first unrun line, :GreenlightCoverage hides and shows them, the next
-- run replaces them, a run that measured nothing clears them, a run whose coverage the server
-- dropped (run.coverageNote) shows the note in the summary instead, and a buffer read after its
-- coverage came gets its signs.
local H = require('harness')
local W = require('workspace')

local kCalc = {
  'def add(a, b):',
  '    if a is None:',
  '        return b  # special',
  '    return a + b',
  '',
  '',
  '# Return the absolute value of x.',
  'def absolute(x):',
  '    if x < 0:',
  '        return -x  # special',
  '    return x',
}

H.run(90, function()
  local coverage = require('greenlight.coverage')
  local tests = require('greenlight.tests')
  local root = W.create('coverage', kCalc)
  local log = W.log_to(root)

  -- What the last finished notification with coverage said, to compare the view with the wire.
  local last = nil
  tests.subscribe(function(_, params)
    if params.run and params.run.state == 'finished' then last = params end
  end)

  local function signs(bufnr)
    local placed = vim.fn.sign_getplaced(bufnr, { group = coverage.group })[1].signs
    local out = {}
    for _, s in ipairs(placed) do
      H.eq(s.name, 'GreenlightNotRun', 'sign name')
      table.insert(out, s.lnum)
    end
    table.sort(out)
    return out
  end
  local function run_and_wait(bufnr)
    last = nil
    local mark = H.results_mark()
    vim.api.nvim_set_current_buf(bufnr)
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    vim.cmd('GreenlightRunTests')
    local response = H.wait_result('greenlight.runTests', mark, 20000)
    H.check(response.err == nil, 'runTests failed: ' .. vim.inspect(response.err))
    H.wait(10000, function() return last ~= nil end, 'the finished greenlight/testResults')
  end

  H.step('a run: the lines no test ran get signs')
  local bufnr, client = H.open(root .. '/calc.py')
  H.check(H.is_fake(client), 'this scenario scripts coverage with the fake server')
  run_and_wait(bufnr)
  H.check(type(last.coverage) == 'table' and #last.coverage == 1, 'the fake sent coverage: ' .. vim.inspect(last.coverage))
  H.eq(signs(bufnr), { 3, 10 }, 'signs on the `# special` lines')
  H.eq(vim.trim(vim.fn.sign_getdefined('GreenlightNotRun')[1].text), '┃', 'the sign is defined')

  H.step('the server\'s not-run diagnostics and lens text show as sent; :GreenlightFix does not take them')
  H.wait(5000, function() return #H.greenlight_diagnostics(bufnr) == 2 end, 'the two not-run diagnostics')
  for _, d in ipairs(H.greenlight_diagnostics(bufnr)) do
    H.eq(d.severity, vim.diagnostic.severity.INFO, 'severity of ' .. vim.inspect(d))
    H.eq(d.message, 'no test runs this line', 'message')
  end
  H.eq(vim.tbl_map(function(d) return d.lnum end, H.greenlight_diagnostics(bufnr)), { 2, 9 }, 'lines of the not-run diagnostics')
  local codelens = require('greenlight.codelens')
  H.wait(10000, function() return (codelens.shown(client.id, bufnr)[0] or ''):find('1 passed · 75% of lines', 1, true) ~= nil end,
    'the "✔ 1 passed · 75% of lines" lens over add()')
  vim.api.nvim_win_set_cursor(0, { 3, 8 })
  local before_fix = #H.notifications
  vim.cmd('GreenlightFix')
  H.check(#H.fake_sent(log, 'workspace/executeCommand', 'greenlight.fix') == 0,
    'greenlight.fix was sent for a not-run diagnostic')
  H.check(#H.notifications > before_fix and H.notifications[#H.notifications].msg:find('no greenlight failure on this line', 1, true),
    ':GreenlightFix says there is nothing to fix: ' .. vim.inspect(H.notifications[#H.notifications]))

  H.step('the summary says how many lines ran, as the wire said; <CR> goes to the first unrun line')
  local run, total = 0, 0
  for _, pair in ipairs(last.coverage[1].lines) do
    total = total + 1
    if pair[2] > 0 then run = run + 1 end
  end
  H.eq({ run, total }, { 6, 8 }, 'the fake\'s coverage of calc.py (8 code lines, 2 special)')
  vim.cmd('GreenlightTests')
  H.check(tests.view and vim.api.nvim_win_is_valid(tests.view.win), 'no summary window')
  local row
  H.wait(5000, function()
    for i, l in ipairs(vim.api.nvim_buf_get_lines(tests.view.buf, 0, -1, false)) do
      if l:find('calc.py · 6/8 lines run', 1, true) then row = i end
    end
    return row ~= nil
  end, '"calc.py · 6/8 lines run" in the summary')
  local text = table.concat(vim.api.nvim_buf_get_lines(tests.view.buf, 0, -1, false), '\n')
  H.contains(text, 'lines run by the last runs:', 'the coverage heading')
  H.contains(text, '✔ test_add', 'the run\'s results are listed too')
  vim.api.nvim_set_current_win(tests.view.win)
  vim.api.nvim_win_set_cursor(tests.view.win, { row, 0 })
  tests.jump()
  H.check(vim.api.nvim_get_current_win() ~= tests.view.win, 'the jump leaves the summary')
  H.eq(vim.api.nvim_get_current_buf(), bufnr, 'the jump opens calc.py')
  H.eq(vim.api.nvim_win_get_cursor(0)[1], 3, 'at the first line no test ran')
  vim.api.nvim_win_close(tests.view.win, false)

  H.step(':GreenlightCoverage hides and shows the signs')
  vim.cmd('GreenlightCoverage')
  H.eq(signs(bufnr), {}, 'hidden')
  vim.cmd('GreenlightCoverage')
  H.eq(signs(bufnr), { 3, 10 }, 'shown again')
  vim.cmd('GreenlightCoverage off')
  H.eq(signs(bufnr), {}, 'off')
  vim.cmd('GreenlightCoverage off')
  H.eq(signs(bufnr), {}, 'off stays off')
  vim.cmd('GreenlightCoverage on')
  H.eq(signs(bufnr), { 3, 10 }, 'on')
  local before = #H.notifications
  vim.cmd('GreenlightCoverage sometimes')
  H.eq(signs(bufnr), { 3, 10 }, 'a bad argument changes nothing')
  H.check(#H.notifications > before and H.notifications[#H.notifications].msg:find('bad argument "sometimes"', 1, true),
    'a bad argument is reported')

  H.step('the next run replaces the signs: the branch now runs')
  vim.api.nvim_buf_set_lines(bufnr, 2, 3, false, { '        return b' })
  run_and_wait(bufnr)
  H.eq(signs(bufnr), { 10 }, 'only absolute()\'s branch is unrun now')

  H.step('a run that measured nothing clears them, and the summary line goes')
  vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { '# GREENLIGHT_COVERAGE=0' })
  run_and_wait(bufnr)
  H.eq(last.coverage, nil, 'the fake measured nothing')
  H.eq(signs(bufnr), {}, 'cleared')
  H.eq(#coverage.summary(client.id, root), 0, 'no summary line without coverage')

  H.step('a run whose coverage the server dropped says why in the summary')
  vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { '# GREENLIGHT_COVERAGE_DROPPED' })
  run_and_wait(bufnr)
  H.eq(last.coverage, nil, 'nothing measured')
  H.check(type(last.run.coverageNote) == 'string', 'the fake said why')
  H.eq(signs(bufnr), {}, 'no signs')
  local noted = coverage.summary(client.id, root)
  H.eq(#noted, 1, 'one summary line: ' .. vim.inspect(noted))
  H.eq(noted[1].text, 'calc.py · ' .. last.run.coverageNote, 'the note, under the file')
  vim.cmd('GreenlightTests')
  H.wait(5000, function()
    return table.concat(vim.api.nvim_buf_get_lines(tests.view.buf, 0, -1, false), '\n'):find('calc.py · coverage not measured: with it,', 1, true) ~= nil
  end, 'the note in the summary window')
  vim.api.nvim_win_close(tests.view.win, false)

  H.step('a buffer read after its coverage came gets its signs')
  vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { '' })
  run_and_wait(bufnr)
  H.eq(signs(bufnr), { 10 }, 'measured again')
  vim.cmd('silent write')
  -- Another buffer in the window, then calc.py wiped (its signs go with it) and read again.
  vim.cmd('enew')
  vim.cmd('bwipeout! ' .. bufnr)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/calc.py'))
  local again = vim.api.nvim_get_current_buf()
  H.check(again ~= bufnr, 'a new buffer')
  H.eq(signs(again), { 10 }, 'the signs of the last coverage, placed as the buffer is read')

  H.step('malformed coverage: what is well-formed is kept, nothing throws')
  coverage.on_results(client.id, { uri = 'file:///elsewhere/doc.py', run = { id = 99, trigger = 'save', state = 'finished' },
    results = {}, coverage = { 'x', { uri = 'file:///elsewhere/m.py', lines = { { 0, 1 }, { 2, -1 }, { 3, 1.5 }, 'y', { 4, 0 }, { 5, 2 } } },
      { lines = {} } } })
  local kept = coverage.files[client.id]['file:///elsewhere/m.py']
  H.check(kept ~= nil, 'the well-formed entry was dropped')
  H.eq(kept.lines, { { 4, 0 }, { 5, 2 } }, 'the well-formed lines')
  H.eq({ kept.covered, kept.total }, { 1, 2 }, 'covered of total')
  coverage.on_results(client.id, { uri = 'file:///elsewhere/doc.py', run = { id = 100, trigger = 'save', state = 'finished' },
    results = {}, coverage = vim.NIL })
  H.eq(coverage.files[client.id]['file:///elsewhere/m.py'], nil, 'a null coverage clears the document\'s last one')

  H.step('coverage = false starts hidden')
  vim.g.greenlight = { coverage = false }
  package.loaded['greenlight.coverage'] = nil
  local fresh = require('greenlight.coverage')
  H.eq(fresh.shown(), false, 'hidden by the configuration')
  vim.g.greenlight = nil
end)
