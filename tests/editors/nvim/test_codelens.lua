-- CodeLens from the editor's side, against the server named by GREENLIGHT_TEST_BIN: the
-- lenses show after attach (`▶ Run tests` on tested code, `✨ Generate` on stubs), a test run
-- makes the server ask for a refresh and the results show (`✘ 1 failed`, then `✔ 1 passed`),
-- typing a new stub shows its lens (InsertLeave, debounced), and running the `✨ Generate` lens
-- with vim.lsp.codelens.run() takes the same path as :GreenlightGenerate.
local H = require('harness')
local W = require('workspace')

H.run(120, function()
  local bin = H.env('GREENLIGHT_TEST_BIN')
  H.step('the server answers initialize')
  H.probe_server(bin)

  local calc = vim.deepcopy(W.calc)
  calc[2] = '    return a - b'
  local root = W.create('codelens', calc)
  W.log_to(root)
  local codelens = require('greenlight.codelens')

  H.step('lenses after attach')
  local bufnr, client = H.open(root .. '/calc.py')
  H.check(client.server_capabilities.codeLensProvider ~= nil, 'the server does not advertise codeLensProvider')
  local add = H.line_of(bufnr, 'def add(a, b):') - 1
  local mul = H.line_of(bufnr, 'def mul(a, b):') - 1
  local function shown(line) return codelens.shown(client.id, bufnr)[line] or '' end
  H.wait(10000, function() return shown(add):find('Run tests', 1, true) and shown(mul):find('Generate', 1, true) end,
    'the Run tests / Generate lenses')
  H.check(#vim.lsp.codelens.get(bufnr) >= 2, 'vim.lsp.codelens.get: ' .. vim.inspect(vim.lsp.codelens.get(bufnr)))

  H.step('a failing run: the server asks for a refresh, the result shows')
  vim.api.nvim_win_set_cursor(0, { add + 2, 4 })
  vim.cmd('GreenlightRunTests')
  H.wait(60000, function() return shown(add):find('1 failed', 1, true) ~= nil end, 'the "✘ 1 failed" lens')
  H.contains(shown(add), 'Run tests', 'the run lens stays')

  H.step('fixed and run again: "✔ 1 passed"')
  vim.api.nvim_buf_set_lines(bufnr, add + 1, add + 2, false, { '    return a + b' })
  vim.cmd('GreenlightRunTests')
  H.wait(60000, function() return shown(add):find('1 passed', 1, true) ~= nil end, 'the "✔ 1 passed" lens')

  H.step('typing a new stub shows its lens (InsertLeave)')
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('Go<CR><CR>def neg(a):<CR>pass<Esc>', true, false, true), 'x', false)
  local neg = H.line_of(bufnr, 'def neg(a):') - 1
  H.wait(10000, function() return shown(neg):find('Generate', 1, true) ~= nil end, 'the Generate lens on the typed stub')

  H.step('vim.lsp.codelens.run() on the mul() stub generates it through the plugin')
  vim.api.nvim_win_set_cursor(0, { mul + 1, 0 })
  local mark = H.results_mark()
  vim.lsp.codelens.run()
  local response = H.wait_result('greenlight.generate', mark, 60000)
  H.check(response.err == nil, 'generate failed: ' .. vim.inspect(response.err))
  H.eq(response.result.applied, true, 'applied')
  H.eq(W.body(bufnr, 'mul'), { '    return a * b' }, 'the body of mul()')
  H.wait(10000, function() return not shown(mul):find('Generate', 1, true) end, 'the Generate lens to go once mul() is code')
end)
