-- :checkhealth greenlight. Works with the Neovim 0.7 health API (health#report_*) and the
-- newer vim.health.{start,ok,warn,error,info}.
--
-- The server's own view (sandbox layers, interpreters, the LLM provider the configuration
-- resolves to) comes from `greenlight doctor --offline --workspace ROOT`: the same code the
-- server runs, bounded in time, and offline so :checkhealth never waits on a remote model (the
-- local Ollama / llama.cpp probes are loopback connects). What the plugin alone knows (its
-- configuration, vim.g.greenlight.settings that override the project's, running clients) is
-- checked here.
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

-- Doctor times a cold and a warm interpreter start per language and may wait seconds for the
-- warm one to load: 2-3 s here, 6-7 s for a sanitizer build on a loaded machine. The bound only
-- has to catch a hang, so it is generous: an ERROR from a slow but healthy doctor would be false.
local kDoctorTimeoutMs = 30000
-- `--version` prints and exits; a sanitizer build under load takes a few hundred ms.
local kVersionTimeoutMs = 10000

-- The project root the server would use for the current buffer, else the current directory.
local function workspace(cfg)
  local name = vim.api.nvim_buf_get_name(0)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  if vim.fn.isdirectory(dir) == 0 then dir = vim.fn.getcwd() end
  local current = dir
  while true do
    for _, marker in ipairs(cfg.root_markers or {}) do
      if vim.fn.filereadable(current .. '/' .. marker) == 1 or vim.fn.isdirectory(current .. '/' .. marker) == 1 then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then return dir end
    current = parent
  end
end

-- Parses doctor's "LEVEL  name: text" lines and their indented "hint: ..." lines.
function M.parse_doctor(lines)
  local entries = {}
  for _, line in ipairs(lines) do
    local level, text = line:match('^(%u+)%s+(.*)$')
    if level == 'OK' or level == 'WARN' or level == 'FAIL' then
      table.insert(entries, { level = level, text = text, hints = {} })
    else
      local hint = line:match('^%s+hint:%s*(.*)$')
      if hint and #entries > 0 then table.insert(entries[#entries].hints, hint) end
    end
  end
  return entries
end

local function doctor(health, path, cfg)
  local root = workspace(cfg)
  health.start('greenlight: server checks (greenlight doctor --offline, workspace ' .. root .. ')')
  local binary = require('greenlight.binary')
  local status, lines = binary.run({ path, 'doctor', '--offline', '--workspace', root }, kDoctorTimeoutMs, root)
  if not status then
    health.error(lines, { 'Run `' .. path .. ' doctor` in a terminal to see why' })
    return
  end
  local entries = M.parse_doctor(lines)
  if #entries == 0 or status == 2 then
    health.error(string.format('greenlight doctor exited with %d: %s', status, table.concat(lines, ' / ')),
      { 'Run `' .. path .. ' doctor` in a terminal; check .greenlight.json in ' .. root })
    return
  end
  for _, e in ipairs(entries) do
    if e.text:find('^provider reachable: skipped %(%-%-offline%)') then
      -- Our own choice, not a problem: say how to try the provider.
      health.info('provider reachable: not tried from :checkhealth (it would call the model); run `'
        .. path .. ' doctor` in a terminal for a 1-token request')
      goto continue
    end
    local report = e.level == 'OK' and health.ok or (e.level == 'WARN' and health.warn or health.error)
    if #e.hints > 0 and e.level ~= 'OK' then report(e.text, e.hints) else report(e.text) end
    ::continue::
  end
  -- The plugin's settings are a layer above what doctor sees (.greenlight.json, environment).
  local settings = cfg.settings or {}
  local overrides = {}
  for _, key in ipairs({ 'provider', 'baseUrl', 'model', 'apiKeyEnv' }) do
    if settings[key] ~= nil then
      table.insert(overrides, key .. '=' .. (settings[key] == vim.NIL and 'null' or tostring(settings[key])))
    end
  end
  if #overrides > 0 then
    health.info('vim.g.greenlight.settings sets ' .. table.concat(overrides, ', ')
      .. ': the server uses these over .greenlight.json and the environment (doctor does not see them)')
  end
end

-- Interpreters/compilers named in vim.g.greenlight.settings (doctor checks the others).
local function configured_tools(health, cfg)
  local settings = cfg.settings or {}
  local tools = {}
  if (settings.python or {}).interpreter then table.insert(tools, { 'Python', settings.python.interpreter, 'settings.python.interpreter' }) end
  if (settings.node or {}).path then table.insert(tools, { 'JavaScript', settings.node.path, 'settings.node.path' }) end
  if (settings.cxx or {}).compiler then table.insert(tools, { 'C++', settings.cxx.compiler, 'settings.cxx.compiler' }) end
  if #tools == 0 then return end
  local binary = require('greenlight.binary')
  health.start('greenlight: test runners named in vim.g.greenlight.settings')
  for _, tool in ipairs(tools) do
    local language, program, key = tool[1], tool[2], tool[3]
    local exe = vim.fn.exepath(program)
    if exe == '' then
      health.warn(string.format('%s: %s not found; %s tests cannot run', language, program, language),
        { 'Install it or fix vim.g.greenlight.' .. key })
    else
      local version, err = binary.first_line({ exe, '--version' }, 3000)
      if version then
        health.ok(string.format('%s: %s: %s', language, exe, version))
      else
        health.warn(string.format('%s: %s: %s', language, exe, err))
      end
    end
  end
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
  local v = vim.version()
  if vim.fn.has('nvim-0.7') == 1 then
    health.ok(string.format('Neovim %d.%d.%d', v.major, v.minor, v.patch))
    if vim.fn.has('nvim-0.10') == 0 then
      health.info('Neovim before 0.10: the refine.preview diff is modal (answer a or r), progress is echoed')
    end
  else
    health.error('Neovim 0.7 or later is required')
  end

  health.start('greenlight: server binary')
  local path, source_or_error = binary.resolve(cfg)
  if not path then
    health.error(source_or_error, { 'Build it with ./run.sh (build/greenlight) and put it on $PATH, or set server.path' })
  else
    local version, err = binary.first_line({ path, '--version' }, kVersionTimeoutMs)
    if version then
      health.ok(string.format('%s (from %s): %s', path, source_or_error, version))
      doctor(health, path, cfg)
    else
      health.error(string.format('%s (from %s): %s', path, source_or_error, err))
    end
  end

  configured_tools(health, cfg)

  health.start('greenlight: running servers')
  local greenlight = require('greenlight')
  local clients = greenlight.clients()
  if #clients == 0 then
    health.info('no greenlight server running (one starts when a ' .. table.concat(cfg.filetypes, '/') .. ' buffer opens)')
  end
  for _, client in ipairs(clients) do
    local info = greenlight.server_info[client.id]
    local commands = ((client.server_capabilities or {}).executeCommandProvider or {}).commands or {}
    health.ok(string.format('client %d: root %s, offset encoding %s%s; commands: %s', client.id, client.config.root_dir or '?',
      client.offset_encoding or '?', info and (', ' .. (info.name or '') .. ' ' .. (info.version or '')) or '',
      #commands > 0 and table.concat(commands, ', ') or 'none'))
  end
  -- Coverage has no failure mode of its own; the line says whether the signs are shown and why
  -- none may be there yet.
  local coverage = require('greenlight.coverage')
  local measured = 0
  for _, files in pairs(coverage.files) do measured = measured + vim.tbl_count(files) end
  health.info(string.format('coverage: signs on the lines no test ran are %s (:GreenlightCoverage toggles); '
    .. '%d file(s) measured by the last runs', coverage.shown() and 'shown' or 'hidden', measured))
end

return M
