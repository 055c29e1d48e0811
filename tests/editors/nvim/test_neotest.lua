-- The plugin's neotest adapter (lua/neotest-greenlight) driven the way neotest drives an
-- adapter, against the real server. neotest and nvim-nio cannot be vendored (see
-- neotest-standin/README.md): the stand-in in neotest-standin/ plays their part. Checked: the
-- plugin never loads nio on its own; positions come from greenlight/listTests (started a server
-- for a file no buffer had opened); a run of the file and of one test go through
-- greenlight.runTests, stream results as they come and end with neotest results (status, short,
-- the failing line); stopping a run ends it.
local H = require('harness')
local W = require('workspace')

H.run(150, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  H.step('the plugin works without neotest: nio is never loaded')
  H.check(not pcall(require, 'nio'), 'nio is on the path before the stand-in was added')
  local adapter = require('neotest-greenlight')
  H.eq(adapter.name, 'greenlight', 'adapter name')
  H.check(package.loaded.nio == nil, 'requiring the adapter loaded nio')

  local here = H.env('GREENLIGHT_NVIM_TESTS') .. '/neotest-standin'
  package.path = here .. '/lua/?.lua;' .. here .. '/lua/?/init.lua;' .. here .. '/?.lua;' .. package.path
  local S = require('neotest_standin')

  local calc = vim.deepcopy(W.calc)
  calc[2] = '    return a - b'
  local root = W.create('neotest', calc)
  local path = root .. '/test_calc.py'

  H.step('discover_positions on a file no buffer has open: a server is started for it')
  H.eq(#require('greenlight').clients(), 0, 'no greenlight client yet')
  local found = S.discover(adapter, path)
  H.eq(found.root, root, 'root')
  H.eq(found.is_test_file, true, 'is_test_file')
  H.eq(adapter.is_test_file(root .. '/calc.py'), false, 'calc.py is no test file')
  H.eq(adapter.is_test_file(root .. '/src/sum.test.js'), true, 'sum.test.js')
  H.eq(adapter.filter_dir('node_modules', 'node_modules', root), false, 'node_modules is skipped')
  H.eq(#require('greenlight').clients(), 1, 'one greenlight client')
  local tree = found.tree
  H.eq(tree:data().id, path, 'the file position\'s id is its path')
  H.eq(tree:data().type, 'file', 'file position type')
  local tests = {}
  for _, pos in tree:iter() do
    if pos.type == 'test' then table.insert(tests, pos.id) end
  end
  H.eq(tests, { path .. '::test_add', path .. '::test_mul', path .. '::test_mul_zero', path .. '::test_square',
    path .. '::test_fact', path .. '::test_is_prime' }, 'test positions')
  local add = tree:get_key(path .. '::test_add'):data()
  H.eq(add.name, 'test_add', 'name')
  H.eq(add.range, { 3, 0, 4, 25 }, 'range of test_add')

  H.step('a run of the file: results streamed, then neotest results')
  local run = S.run(adapter, tree)
  H.eq(run.code, 1, 'code (tests failed)')
  H.eq(run.complete, true, 'is_complete')
  local r = run.results
  H.eq(r[path .. '::test_add'].status, 'failed', 'test_add')
  H.contains(r[path .. '::test_add'].short, 'add(2, 3) returned -1, expected 5', 'short')
  H.eq(r[path .. '::test_add'].errors[1].line, 4, 'the failing line (0-based)')
  H.eq(r[path .. '::test_mul'].status, 'failed', 'test_mul (a stub)')
  local n = 0
  for _ in pairs(r) do n = n + 1 end
  H.eq(n, 6, 'results for every test')
  local streamed = {}
  for _, batch in ipairs(run.streamed) do
    for id, res in pairs(batch) do streamed[id] = res.status end
  end
  H.eq(streamed[path .. '::test_add'], 'failed', 'test_add in the stream')
  H.check(vim.fn.filereadable(run.output) == 1, 'no output file')
  H.contains(table.concat(vim.fn.readfile(run.output), '\n'), 'failed ' .. 'test_calc.py::test_add', 'the output')

  H.step('a run of one test runs only that test')
  run = S.run(adapter, tree, path .. '::test_add')
  n = 0
  for _ in pairs(run.results) do n = n + 1 end
  H.eq(n, 1, 'results of a one-test run')
  H.eq(run.results[path .. '::test_add'].status, 'failed', 'test_add')

  H.step('fixed in the editor, unsaved: the run sees the buffer')
  local bufnr = H.open(root .. '/calc.py')
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, false, { '    return a + b' })
  run = S.run(adapter, tree, path .. '::test_add')
  H.eq(run.code, 0, 'code')
  H.eq(run.results[path .. '::test_add'].status, 'passed', 'test_add after the fix')

  H.step('stop() ends a run')
  run = S.run(adapter, tree, nil, function(process) process.stop() end)
  H.eq(run.code, 1, 'a stopped run\'s code')
  H.eq(run.complete, true, 'is_complete after stop')
  H.check(package.loaded.nio ~= nil, 'the stand-in nio was used')
end)
