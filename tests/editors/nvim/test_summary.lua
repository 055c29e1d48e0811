-- :GreenlightTests against the real server (the scripted model answers the fix): the summary
-- lists the tests near the open file (greenlight/listTests) as files -> tests with status
-- signs; `r` runs the test under the cursor and its result shows (greenlight/testResults);
-- <CR> jumps to the failing assertion; `g` fixes the code the failing test exercises, and the
-- fix's own run turns the test green; a save's run updates the window too.
local H = require('harness')
local W = require('workspace')

-- The summary window's lines (without the header) and the line (1-based, in the buffer) whose
-- text matches `pattern`.
local function view_lines()
  local tests = require('greenlight.tests')
  if not tests.view or not vim.api.nvim_buf_is_valid(tests.view.buf) then return {} end
  return vim.api.nvim_buf_get_lines(tests.view.buf, 1, -1, false)
end

local function find(pattern)
  for i, l in ipairs(view_lines()) do
    if l:find(pattern) then return i + 1 end
  end
  return nil
end

local function wait_line(pattern, what)
  H.wait(60000, function() return find(pattern) ~= nil end, what .. ' (summary: ' .. vim.inspect(view_lines()) .. ')')
  return find(pattern)
end

-- Puts the cursor on the summary line matching `pattern` and types `keys` there.
local function press(pattern, keys)
  local tests = require('greenlight.tests')
  vim.api.nvim_set_current_win(tests.view.win)
  local row = wait_line(pattern, 'a line matching ' .. pattern)
  vim.api.nvim_win_set_cursor(tests.view.win, { row, 0 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'x', false)
end

H.run(150, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  local calc = vim.deepcopy(W.calc)
  calc[2] = '    return a - b'
  local root = W.create('summary', calc)
  local bufnr, client = H.open(root .. '/calc.py')
  if H.is_fake(client) then H.skip('the fake server has no greenlight/listTests') end

  H.step(':GreenlightTests lists the tests near calc.py, nothing run yet')
  vim.cmd('GreenlightTests')
  local tests = require('greenlight.tests')
  H.check(tests.view and vim.api.nvim_win_is_valid(tests.view.win), 'no summary window')
  wait_line('^· test_calc%.py$', 'the test file')
  for _, name in ipairs({ 'test_add', 'test_mul', 'test_mul_zero', 'test_square', 'test_fact', 'test_is_prime' }) do
    wait_line('^  · ' .. name .. '$', name)
  end
  H.eq(vim.api.nvim_buf_get_lines(tests.view.buf, 0, 1, false)[1]:find('greenlight tests', 1, true), 1, 'the header')

  H.step('r on test_add runs that test only: ✘ with the failure')
  local mark = H.results_mark()
  press('^  · test_add$', 'r')
  local response = H.wait_result('greenlight.runTests', mark, 60000)
  H.check(response.err == nil, 'runTests failed: ' .. vim.inspect(response.err))
  H.eq({ response.result.passed, response.result.failed }, { 0, 1 }, 'one test ran')
  local row = wait_line('^  ✘ test_add  %d+ ms  AssertionError: add%(2, 3%) returned %-1, expected 5$', 'test_add failed')
  H.check(find('^  · test_mul$') ~= nil, 'test_mul did not run, its sign stays: ' .. vim.inspect(view_lines()))
  H.check(find('^✘ test_calc%.py$') ~= nil, 'the file shows its worst child: ' .. vim.inspect(view_lines()))

  H.step('<CR> jumps to the failing assertion')
  press('^  ✘ test_add', '<CR>')
  H.eq(vim.api.nvim_buf_get_name(0), root .. '/test_calc.py', 'the buffer jumped to')
  H.eq(vim.api.nvim_win_get_cursor(0)[1], 5, 'the assertion\'s line')
  H.check(vim.api.nvim_get_current_win() ~= tests.view.win, 'the jump stays out of the summary')

  H.step('g fixes add() (greenlight.fix on the test\'s diagnostic); the fix\'s run turns it green')
  local _ = row
  mark = H.results_mark()
  press('^  ✘ test_add', 'g')
  response = H.wait_result('greenlight.fix', mark, 90000)
  H.check(response.err == nil, 'fix failed: ' .. vim.inspect(response.err))
  H.eq(response.result.applied, true, 'applied')
  H.eq(H.lines(bufnr)[2], '    return a + b', 'the fixed line in calc.py')
  wait_line('^  ✔ test_add  %d+ ms$', 'test_add passing after the fix')

  H.step('g on a passing test says there is nothing to fix')
  H.notifications = {}
  press('^  ✔ test_add', 'g')
  H.eq(#H.notified('does not fail'), 1, 'the message')

  H.step('a run on save updates the summary: every test of the file')
  vim.api.nvim_set_current_buf(bufnr)
  vim.cmd('write')
  wait_line('^  ✘ test_mul  ', 'test_mul failing (a stub) after the run on save')
  wait_line('^  ✔ test_add  ', 'test_add still passing')
  wait_line('^  ✘ test_is_prime  ', 'test_is_prime failing')

  -- GREENLIGHT_NVIM_SUMMARY_OUT: the window as it looks now (the Neovim README shows it).
  local out = os.getenv('GREENLIGHT_NVIM_SUMMARY_OUT')
  if out and out ~= '' then vim.fn.writefile(vim.api.nvim_buf_get_lines(tests.view.buf, 0, -1, false), out) end
end)
