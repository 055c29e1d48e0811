-- End to end through the whole product from the editor: :GreenlightRunTests on a function
-- whose nearby test fails shows progress and a "greenlight" diagnostic; fixing the code and
-- saving (runOnSave) clears it.
local H = require('harness')

local function greenlight_diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    if d.source == 'greenlight' then table.insert(out, d) end
  end
  return out
end

H.run(150, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  H.step('open a function whose test fails')
  local root = H.tempdir('run')
  H.write(root .. '/.greenlight.json', { '{}' })
  H.write(root .. '/calc.py', { 'def add(a, b):', '    return a - b' })
  H.write(root .. '/test_calc.py', { 'from calc import add', '', '', 'def test_add():', '    assert add(2, 3) == 5' })
  local greenlight = require('greenlight')
  local progress = require('greenlight.progress')
  vim.cmd('edit ' .. root .. '/calc.py')
  local bufnr = vim.api.nvim_get_current_buf()
  H.wait(10000, function()
    local c = greenlight.client(bufnr)
    return c ~= nil and c.initialized == true
  end, 'an initialized client')

  H.step(':GreenlightRunTests reports progress and a failing-test diagnostic')
  vim.api.nvim_win_set_cursor(0, { 2, 4 })
  vim.cmd('GreenlightRunTests')
  H.wait(60000, function()
    -- The plugin reports a failed executeCommand through vim.notify: stop waiting at once.
    for _, n in ipairs(H.notifications) do
      if n.msg:find('greenlight.runTests:', 1, true) then H.fail('the command failed: ' .. n.msg) end
    end
    return #greenlight_diagnostics() > 0
  end, 'a greenlight diagnostic')
  local d = greenlight_diagnostics()[1]
  H.check(d.severity == vim.diagnostic.severity.ERROR, 'severity ' .. vim.inspect(d.severity))
  H.contains(d.message, 'test_add', 'diagnostic message')
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  H.eq(code, 'test-failed', 'diagnostic code')
  H.wait(10000, function()
    for _, h in ipairs(progress.history) do
      if h.value.kind == 'end' then return true end
    end
    return false
  end, '$/progress end')
  H.eq(progress.history[1].value.kind, 'begin', 'first progress value')

  H.step('fixing the code and saving clears the diagnostic (runOnSave)')
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, false, { '    return a + b' })
  vim.cmd('write')
  H.wait(60000, function() return #greenlight_diagnostics() == 0 end, 'the diagnostics to clear after the fix')
end)
