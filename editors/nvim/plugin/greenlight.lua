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
cmd('GreenlightGenerate', 'generate', 'greenlight: generate code from the comment at the cursor')
cmd('GreenlightCancel', 'cancel', 'greenlight: cancel running tests / generation')
cmd('GreenlightRestart', 'restart', 'greenlight: restart the server')

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
