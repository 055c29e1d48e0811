-- :GreenlightTests before any file is opened, against the real server: the summary lists the
-- workspace's tests under their folders (greenlight/listWorkspaceTests; node_modules skipped), no
-- buffer is opened for that; `r` on a listed test runs it and its result lands on that line (the
-- ids agree); a test file saved from Neovim appears; one deleted outside Neovim goes when Neovim
-- gets the focus back.
local H = require('harness')

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

local function count(pattern)
  local n = 0
  for _, l in ipairs(view_lines()) do
    if l:find(pattern) then n = n + 1 end
  end
  return n
end

local function wait_line(pattern, what)
  H.wait(60000, function() return find(pattern) ~= nil end, what .. ' (summary: ' .. vim.inspect(view_lines()) .. ')')
  return find(pattern)
end

H.run(120, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  local root = H.tempdir('workspace-tests')
  H.write(root .. '/.greenlight.json', { '{}' })
  H.write(root .. '/calc.py', { 'def add(a, b):', '    return a - b' })
  H.write(root .. '/tests/test_calc.py', { 'import sys', 'sys.path.insert(0, ".")', 'from calc import add', '', '',
    'def test_add():', '    assert add(2, 3) == 5', '', '', 'def test_zero():', '    assert add(0, 0) == 0' })
  H.write(root .. '/tests/unit/test_deep.py', { 'def test_deep():', '    assert True' })
  H.write(root .. '/web/sum.test.js', { "const test = require('node:test');", "test('adds', () => {});" })
  H.write(root .. '/node_modules/dep/x.test.js', { "test('hidden', () => {});" })
  vim.cmd('cd ' .. vim.fn.fnameescape(root))

  H.step(':GreenlightTests with no file open lists the workspace\'s tests')
  H.eq(#require('greenlight').clients(), 0, 'greenlight clients before :GreenlightTests')
  vim.cmd('GreenlightTests')
  for _, p in ipairs({ '^· tests/$', '^  · test_calc%.py$', '^    · test_add$', '^    · test_zero$', '^  · unit/$',
    '^    · test_deep%.py$', '^      · test_deep$', '^· web/$', '^  · sum%.test%.js$', '^    · adds$' }) do
    wait_line(p, p)
  end
  H.eq(find('hidden'), nil, 'a test under node_modules is listed')
  H.eq(find('x%.test%.js'), nil, 'a test file under node_modules is listed')
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    H.check(name == '' or name:find('greenlight://tests', 1, true), 'a buffer was opened for ' .. name)
  end

  H.step('r on the listed test_add runs it: its line turns ✘')
  local tests = require('greenlight.tests')
  vim.api.nvim_set_current_win(tests.view.win)
  vim.api.nvim_win_set_cursor(tests.view.win, { wait_line('^    · test_add$', 'test_add'), 0 })
  vim.api.nvim_feedkeys('r', 'x', false)
  wait_line('^    ✘ test_add  %d+ ms', 'test_add failed')
  H.eq(count('test_add'), 1, 'test_add lines (a result under another id adds one)')

  H.step('a test file saved from Neovim appears')
  vim.cmd('wincmd p')
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/tests/test_new.py'))
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'def test_new_one():', '    assert True' })
  vim.cmd('write')
  wait_line('^  · test_new%.py$', 'test_new.py after the save')
  wait_line('^    · test_new_one$', 'test_new_one after the save')

  H.step('deleted outside Neovim: gone when Neovim gets the focus back')
  os.remove(root .. '/tests/unit/test_deep.py')
  vim.api.nvim_exec_autocmds('FocusGained', {})
  H.wait(30000, function() return find('test_deep') == nil and find('unit/') == nil end,
    'test_deep.py and its folder to go (summary: ' .. vim.inspect(view_lines()) .. ')')
  H.check(find('test_calc%.py') ~= nil, 'test_calc.py went too')
end)
