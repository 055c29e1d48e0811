-- :checkhealth greenlight. Works with the Neovim 0.7 health API (health#report_*) and the
-- newer vim.health.{start,ok,warn,error,info}.
local M = {}

local function api()
  local h = vim.health or {}
  local function pick(new, old)
    return h[new] or h['report_' .. new] or vim.fn['health#report_' .. (old or new)]
  end
  return {
    start = pick('start'),
    ok = pick('ok'),
    warn = pick('warn'),
    error = pick('error'),
    info = pick('info'),
  }
end

function M.check()
  local health = api()
  local config = require('greenlight.config')
  local binary = require('greenlight.binary')

  health.start('greenlight: configuration')
  local cfg, problems = config.validate(vim.g.greenlight)
  if vim.g.greenlight == nil then
    health.ok('vim.g.greenlight not set: using the defaults')
  elseif #problems == 0 then
    health.ok('vim.g.greenlight is valid')
  else
    for _, problem in ipairs(problems) do
      health.error(problem, { 'Fix vim.g.greenlight; see :help greenlight-config' })
    end
  end
  if vim.fn.has('nvim-0.7') == 1 then
    health.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))
  else
    health.error('Neovim 0.7 or later is required')
  end

  health.start('greenlight: server binary')
  local path, source_or_error = binary.resolve(cfg)
  if not path then
    health.error(source_or_error, { 'Build it with ./run.sh (build/greenlight) and put it on $PATH, or set server.path' })
  else
    local version, err = binary.first_line({ path, '--version' }, 3000)
    if version then
      health.ok(string.format('%s (from %s): %s', path, source_or_error, version))
    else
      health.error(string.format('%s (from %s): %s', path, source_or_error, err))
    end
  end

  health.start('greenlight: test runners')
  local settings = cfg.settings or {}
  local tools = {
    { 'Python', (settings.python or {}).interpreter or 'python3', '--version', 'settings.python.interpreter' },
    { 'JavaScript', (settings.node or {}).path or 'node', '--version', 'settings.node.path' },
    { 'C++', (settings.cxx or {}).compiler or 'g++', '--version', 'settings.cxx.compiler' },
  }
  for _, tool in ipairs(tools) do
    local language, program, flag, key = tool[1], tool[2], tool[3], tool[4]
    local exe = vim.fn.exepath(program)
    if exe == '' then
      health.warn(string.format('%s: %s not found; %s tests cannot run', language, program, language),
        { 'Install it or set vim.g.greenlight.' .. key })
    else
      local version, err = binary.first_line({ exe, flag }, 3000)
      if version then
        health.ok(string.format('%s: %s: %s', language, exe, version))
      else
        health.warn(string.format('%s: %s: %s', language, exe, err))
      end
    end
  end

  health.start('greenlight: running servers')
  local clients = require('greenlight').clients()
  if #clients == 0 then
    health.info('no greenlight server running (one starts when a ' .. table.concat(cfg.filetypes, '/') .. ' buffer opens)')
  end
  for _, client in ipairs(clients) do
    local info = require('greenlight').server_info[client.id]
    health.ok(string.format('client %d: root %s, offset encoding %s%s', client.id, client.config.root_dir or '?',
      client.offset_encoding or '?', info and (', ' .. (info.name or '') .. ' ' .. (info.version or '')) or ''))
  end
end

return M
