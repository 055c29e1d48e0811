-- :checkhealth greenlight: the binary found on $PATH with its version, a bad server.path and
-- a bad vim.g.greenlight reported as errors.
local H = require('harness')

local function health_lines()
  vim.cmd('silent checkhealth greenlight')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('bwipeout!')
  return lines
end

local function find(lines, ...)
  local needles = { ... }
  for _, line in ipairs(lines) do
    local all = true
    for _, needle in ipairs(needles) do
      if not line:find(needle, 1, true) then all = false break end
    end
    if all then return line end
  end
  return nil
end

H.run(30, function()
  local bin = H.uv.fs_realpath(H.env('GREENLIGHT_TEST_BIN'))

  H.step('binary on $PATH: OK with its version')
  vim.g.greenlight = nil
  H.eq(vim.fn.exepath('greenlight'), bin, 'greenlight on $PATH (the wrapper puts the build dir first)')
  local version = vim.trim(vim.fn.system({ bin, '--version' }))
  H.eq(vim.v.shell_error, 0, bin .. ' --version exit code')
  H.check(version ~= '', '--version printed nothing')
  local lines = health_lines()
  local text = table.concat(lines, '\n')
  H.check(find(lines, 'OK', bin, version) ~= nil,
    string.format('no OK line with %s and "%s" in:\n%s', bin, version, text))
  H.check(find(lines, 'OK', 'vim.g.greenlight not set') ~= nil, 'no OK line for the default configuration:\n' .. text)
  H.check(find(lines, 'ERROR') == nil, 'unexpected ERROR:\n' .. text)
  -- The server's own checks (greenlight doctor --offline): the sandbox and the provider.
  H.check(find(lines, 'greenlight doctor --offline') ~= nil, 'no doctor section:\n' .. text)
  H.check(find(lines, 'sandbox:') ~= nil, 'no sandbox line from doctor:\n' .. text)
  H.check(find(lines, 'provider:') ~= nil, 'no provider line from doctor:\n' .. text)
  H.check(find(lines, 'coverage: signs on the lines no test ran are shown', '0 file(s) measured') ~= nil,
    'no coverage line:\n' .. text)

  H.step('settings that choose the provider are listed')
  vim.g.greenlight = { settings = { provider = 'openai', model = 'gpt-test' } }
  lines = health_lines()
  H.check(find(lines, 'provider=openai', 'model=gpt-test') ~= nil, 'provider settings:\n' .. table.concat(lines, '\n'))

  H.step('explicit server.path: OK, from server.path')
  vim.g.greenlight = { server = { path = bin } }
  lines = health_lines()
  H.check(find(lines, 'OK', bin .. ' (from server.path)', version) ~= nil, 'server.path line:\n' .. table.concat(lines, '\n'))

  H.step('missing server.path: ERROR naming it')
  vim.g.greenlight = { server = { path = '/nonexistent/greenlight' } }
  lines = health_lines()
  H.check(find(lines, 'ERROR', '/nonexistent/greenlight', 'is not an executable file') ~= nil,
    'no ERROR for the missing binary:\n' .. table.concat(lines, '\n'))

  H.step('invalid configuration: ERROR per problem')
  vim.g.greenlight = { settings = { sandbox = { processes = 0 } }, autostart = 'yes' }
  lines = health_lines()
  text = table.concat(lines, '\n')
  H.check(find(lines, 'ERROR', 'vim.g.greenlight.settings.sandbox.processes: expected an integer >= 1, got number 0') ~= nil,
    'no ERROR for sandbox.processes:\n' .. text)
  H.check(find(lines, 'ERROR', 'vim.g.greenlight.autostart: expected true or false') ~= nil, 'no ERROR for autostart:\n' .. text)
end)
