-- Loaded from 'runtimepath' at startup: commands and the FileType hook. No setup() needed.
if vim.g.loaded_greenlight then return end
vim.g.loaded_greenlight = true

if vim.fn.has('nvim-0.7') ~= 1 then
  vim.notify('greenlight needs Neovim 0.7 or later', vim.log.levels.ERROR)
  return
end

local function cmd(name, fn, desc)
  vim.api.nvim_create_user_command(name, function() require('greenlight')[fn]() end, { desc = desc })
end
cmd('GreenlightRunTests', 'run_tests', 'greenlight: run the tests near the cursor in the sandbox')
cmd('GreenlightFix', 'fix', 'greenlight: fix the code until the failing test under the cursor passes')
cmd('GreenlightCancel', 'cancel', 'greenlight: cancel running tests, generations and fixes')
cmd('GreenlightRestart', 'restart', 'greenlight: restart the server')
cmd('GreenlightTests', 'tests', 'greenlight: the tests near the open files and their last results')
vim.api.nvim_create_user_command('GreenlightCoverage', function(opts) require('greenlight').coverage(opts.args) end, {
  desc = 'greenlight: show or hide the signs of the lines no test ran (on, off, or toggle)',
  nargs = '?',
  complete = function() return { 'on', 'off' } end,
})

-- :GreenlightGenerate [rounds=N] [candidates=N]
local kGenerateKeys = { 'rounds', 'candidates' }
vim.api.nvim_create_user_command('GreenlightGenerate', function(opts)
  local extra = {}
  for _, arg in ipairs(opts.fargs) do
    local key, value = arg:match('^(%a+)=(%d+)$')
    if not key or not vim.tbl_contains(kGenerateKeys, key) or tonumber(value) < 1 then
      vim.notify(string.format('greenlight: :GreenlightGenerate: bad argument "%s" (expected rounds=N or candidates=N, N >= 1)', arg),
        vim.log.levels.WARN)
      return
    end
    extra[key] = tonumber(value)
  end
  require('greenlight').generate(next(extra) and extra or nil)
end, {
  desc = 'greenlight: generate code from the comment or stub at the cursor, verified by its tests',
  nargs = '*',
  complete = function(lead)
    return vim.tbl_filter(function(s) return s:find(lead, 1, true) == 1 end, { 'rounds=', 'candidates=' })
  end,
})

local group = vim.api.nvim_create_augroup('greenlight', { clear = true })
vim.api.nvim_create_autocmd('FileType', {
  group = group,
  callback = function(args) require('greenlight').maybe_attach(args.buf) end,
})

-- Buffers opened before the plugin loaded (lazy loading).
for _, buf in ipairs(vim.api.nvim_list_bufs()) do
  if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype ~= '' then
    require('greenlight').maybe_attach(buf)
  end
end

-- The workspace's tests (the summary, neotest) follow the files: a saved file is listed again,
-- and everything when Neovim gets the focus back (a git checkout or a generator in a terminal).
vim.api.nvim_create_autocmd('BufWritePost', {
  group = group,
  callback = function(args)
    if package.loaded['greenlight.tests'] then require('greenlight.tests').changed(vim.api.nvim_buf_get_name(args.buf)) end
  end,
})
-- A file opened after its coverage came gets its not-run signs.
vim.api.nvim_create_autocmd('BufReadPost', {
  group = group,
  callback = function(args)
    if package.loaded['greenlight.coverage'] then require('greenlight.coverage').buffer_loaded(args.buf) end
  end,
})
vim.api.nvim_create_autocmd('FocusGained', {
  group = group,
  callback = function()
    if not package.loaded['greenlight.tests'] then return end
    for _, client in ipairs(require('greenlight').clients()) do require('greenlight.tests').list_workspace(client, {}) end
  end,
})
