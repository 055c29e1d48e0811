-- :GreenlightFix end to end from the editor's side, against the server named by
-- GREENLIGHT_TEST_BIN (editors.nvim*.fix: the scripted fake; fix_real: the real server with
-- the scripted model, which answers `return a + b` only when given the failure): a failing test's diagnostic, the fix run
-- from the cursor's line (the diagnostic is passed back untouched), the code fixed as one undo
-- step and the diagnostic cleared at once; a line without a failure says so.
local H = require('harness')
local W = require('workspace')

H.run(120, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  local calc = vim.deepcopy(W.calc)
  calc[2] = '    return a - b'
  local root = W.create('fix', calc)
  local log = W.log_to(root)
  local apply = require('greenlight.apply')
  local diagnostics = require('greenlight.diagnostics')

  H.step('attach')
  local bufnr, client = H.open(root .. '/calc.py')
  local fake = H.is_fake(client)

  H.step(':GreenlightFix on a line without a failure says so')
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  H.notifications = {}
  vim.cmd('GreenlightFix')
  H.eq(#H.notified('no greenlight failure on this line'), 1, 'the message')

  H.step(':GreenlightRunTests: a failing-test diagnostic on add()')
  vim.api.nvim_win_set_cursor(0, { 2, 4 })
  vim.cmd('GreenlightRunTests')
  H.wait(60000, function() return #H.greenlight_diagnostics(bufnr) > 0 end, 'a greenlight diagnostic')
  local d = H.greenlight_diagnostics(bufnr)[1]
  -- On add() (the fake puts it on the failing line, the real server on the def line).
  H.check(d.lnum <= 1, 'the diagnostic is not on add(): ' .. vim.inspect(d))
  local published = diagnostics.for_buffer(client, bufnr)
  H.eq(#published, 1, 'raw diagnostics kept for the fix')

  H.step(':GreenlightFix from column 0 of the diagnostic\'s line (under the cursor, or the nearest)')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, 0 })
  local before = H.lines(bufnr)
  local mark = H.results_mark()
  vim.cmd('GreenlightFix')
  local response = H.wait_result('greenlight.fix', mark, 60000)
  H.check(response.err == nil, 'fix failed: ' .. vim.inspect(response.err))
  H.eq(response.result.status, 'passed', 'status')
  H.eq(response.result.applied, true, 'applied')
  H.eq(apply.last[client.id].applied, true, 'the applyEdit answer')
  H.eq(H.lines(bufnr)[2], '    return a + b', 'the fixed line')
  -- Cleared at once: the server publishes before it answers, nothing else has to run.
  H.eq(#H.greenlight_diagnostics(bufnr), 0, 'greenlight diagnostics right after the fix')
  if fake then
    local fix = H.fake_sent(log, 'workspace/executeCommand', 'greenlight.fix')
    H.eq(#fix, 1, 'greenlight.fix requests')
    H.eq(fix[1].params.arguments[1].diagnostic, published[1], 'the diagnostic passed back (data included)')
    local actions = vim.tbl_filter(function(m) return m.params.context.only and m.params.context.only[1] == 'quickfix' end,
      H.fake_sent(log, 'textDocument/codeAction'))
    H.eq(actions[#actions].params.context.diagnostics, { published[1] }, 'the codeAction context')
  end

  H.step('one `u` brings the failing code back')
  vim.cmd('normal! u')
  H.eq(H.lines(bufnr), before, 'the buffer after one `u`')
end)
