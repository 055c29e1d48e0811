-- Minimal init for the headless Neovim tests: only the plugin under test on 'runtimepath' (the
-- wrapper points XDG_* at a scratch directory, so no user configuration is read).
local plugin = assert(os.getenv('GREENLIGHT_NVIM_PLUGIN'), 'GREENLIGHT_NVIM_PLUGIN not set')
local here = assert(os.getenv('GREENLIGHT_NVIM_TESTS'), 'GREENLIGHT_NVIM_TESTS not set')
vim.opt.runtimepath:prepend(plugin)
package.path = here .. '/?.lua;' .. package.path
-- ftplugin/python.vim asks has('python3'), which probes the python3 provider (seconds, more
-- through a pyenv shim). No provider is needed here.
for _, provider in ipairs({ 'python3', 'python', 'node', 'ruby', 'perl' }) do
  vim.g['loaded_' .. provider .. '_provider'] = 0
end
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.more = false
vim.cmd('filetype plugin on')
