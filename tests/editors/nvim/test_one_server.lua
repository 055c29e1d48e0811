-- One greenlight server per workspace root, serving every file of it (issue 28): files in two
-- folders of one workspace (root: the .git / .greenlight.json above both), opened in both orders
-- and after a test run, all end up attached to ONE live client whose root_dir is the workspace.
-- 0.7.2 once started a second server for the second file, or none at all after a test run.
local H = require('harness')

local function live_clients()
  return require('greenlight').clients()
end

local function root_dirs()
  local out = {}
  for _, c in ipairs(live_clients()) do table.insert(out, c.config.root_dir) end
  table.sort(out)
  return out
end

-- Opens `path` and waits until it has an initialized greenlight client; returns bufnr, client.
local function open(path)
  return H.open(path, 15000)
end

local function check_one(root, buffers, what)
  H.eq(root_dirs(), { root }, what .. ': the live greenlight clients\' root_dir')
  local client = live_clients()[1]
  for _, b in ipairs(buffers) do
    local c = require('greenlight').client(b)
    H.check(c ~= nil, what .. ': buffer ' .. vim.api.nvim_buf_get_name(b) .. ' has no greenlight client')
    H.eq(c.id, client.id, what .. ': the client of ' .. vim.api.nvim_buf_get_name(b))
  end
  return client
end

local function stop_all()
  for _, c in ipairs(live_clients()) do require('greenlight.compat').call(c, 'stop') end
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  H.wait(10000, function() return #get() == 0 end, 'the clients to stop')
  vim.cmd('silent! %bwipeout!')
end

local function workspace(name)
  local root = H.tempdir(name)
  H.write(root .. '/.git/HEAD', { 'ref: refs/heads/main' })
  H.write(root .. '/.greenlight.json', { '{"sandbox": {"timeLimitSeconds": 20}}' })
  H.write(root .. '/pkg/calc.py', { 'def add(a, b):', '    return a - b' })
  H.write(root .. '/pkg/test_calc.py', { 'from calc import add', '', '', 'def test_add():', '    assert add(2, 3) == 5' })
  H.write(root .. '/lib/words.py', { 'def count(text):', '    return len(text.split())' })
  H.write(root .. '/lib/test_words.py', { 'from words import count', '', '', 'def test_count():', '    assert count("a b") == 2' })
  return root
end

H.run(150, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  H.step('pkg/ then lib/: one client for both')
  local root = workspace('one-server-a')
  local a = open(root .. '/pkg/calc.py')
  local b = open(root .. '/lib/words.py')
  check_one(root, { a, b }, 'pkg then lib')
  stop_all()

  H.step('lib/ then pkg/: one client for both')
  root = workspace('one-server-b')
  b = open(root .. '/lib/words.py')
  a = open(root .. '/pkg/calc.py')
  check_one(root, { a, b }, 'lib then pkg')
  stop_all()

  H.step('both opened at once, before the first server has answered initialize')
  root = workspace('one-server-quick')
  vim.cmd('edit ' .. root .. '/pkg/calc.py')
  a = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. root .. '/lib/words.py')
  b = vim.api.nvim_get_current_buf()
  H.wait(15000, function()
    local ca, cb = require('greenlight').client(a), require('greenlight').client(b)
    return ca ~= nil and cb ~= nil and ca.initialized == true and cb.initialized == true
  end, 'both buffers attached to an initialized client')
  check_one(root, { a, b }, 'at once')
  stop_all()

  H.step('after a test run in pkg/, a file of lib/ joins the same client')
  root = workspace('one-server-c')
  a = open(root .. '/pkg/calc.py')
  vim.api.nvim_win_set_cursor(0, { 2, 4 })
  local first = H.results_mark()
  vim.cmd('GreenlightRunTests')
  H.eq(H.wait_result('greenlight.runTests', first, 60000).result.failed, 1, 'pkg/calc.py: failed')
  H.wait(60000, function() return #H.greenlight_diagnostics(a) > 0 end, 'the failing test\'s diagnostic')
  b = open(root .. '/lib/words.py')
  local c = open(root .. '/lib/test_words.py')
  local client = check_one(root, { a, b, c }, 'after a run')

  H.step('the shared client serves the second folder: :GreenlightRunTests there')
  local mark = H.results_mark()
  vim.api.nvim_set_current_buf(b)
  vim.cmd('GreenlightRunTests')
  local response = H.wait_result('greenlight.runTests', mark, 60000)
  H.check(response.err == nil, 'runTests in lib/ failed: ' .. vim.inspect(response.err))
  H.eq(response.result.passed, 1, 'lib/words.py: passed')
  H.eq(#live_clients(), 1, 'still one client')
  H.eq(require('greenlight').client(b).id, client.id, 'the same client')
end)
