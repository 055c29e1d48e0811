-- vim.g.greenlight validation, the settings sent to the server, commands, help tags.
-- Needs no server: server.path points at a file that does not exist where a server would start.
local H = require('harness')

H.run(30, function()
  local config = require('greenlight.config')

  H.step('commands exist without setup()')
  for _, name in ipairs({ 'GreenlightRunTests', 'GreenlightGenerate', 'GreenlightFix', 'GreenlightCancel', 'GreenlightRestart',
    'GreenlightTests', 'GreenlightCoverage' }) do
    H.eq(vim.fn.exists(':' .. name), 2, ':' .. name)
  end

  H.step('the settings schema is DESIGN.md\'s "greenlight" section')
  local fixture = vim.fn.json_decode(vim.fn.readfile(H.env('GREENLIGHT_FIXTURES') .. '/design-settings.json'))
  local function flatten(t, prefix, out)
    for k, v in pairs(t) do
      local key = prefix == '' and k or (prefix .. '.' .. k)
      local is_section = type(v) == 'table' and v.check == nil and not (vim.islist or vim.tbl_islist)(v)
      if is_section then flatten(v, key, out) else out[key] = v end
    end
    return out
  end
  -- The fixture is the block in DESIGN.md, when DESIGN.md is at hand (the VS Code tests check
  -- the same fixture).
  local design_md = os.getenv('GREENLIGHT_DESIGN_MD')
  if design_md and design_md ~= '' and vim.fn.filereadable(design_md) == 1 then
    local text = table.concat(vim.fn.readfile(design_md), '\n')
    local after = text:match('## Configuration %(section `greenlight`%)(.*)')
    H.check(after ~= nil, 'DESIGN.md has no "## Configuration (section `greenlight`)" heading')
    local block = after:match('```json\n(.-)```')
    H.check(block ~= nil, 'no ```json block under the Configuration heading of DESIGN.md')
    H.eq(vim.json.decode(block), fixture, 'DESIGN.md\'s settings block vs tests/editors/fixtures/design-settings.json')
  end
  local design_keys = vim.tbl_keys(flatten(fixture, '', {}))
  local schema_keys = vim.tbl_keys(flatten(config.settings_schema, '', {}))
  table.sort(design_keys)
  table.sort(schema_keys)
  H.eq(schema_keys, design_keys, 'settings schema keys')
  -- Every DESIGN default passes the schema (vim.NIL for null; an enum's first value, as
  -- "auto|openai|anthropic" and "ask|always|never" say).
  local defaults = flatten(fixture, '', {})
  for key, value in pairs(defaults) do
    if type(value) == 'string' and value:find('|', 1, true) then defaults[key] = vim.split(value, '|', { plain = true })[1] end
  end
  H.eq(defaults['generate.testsFirst'], 'ask', 'the testsFirst default')
  local nested = {}
  for key, value in pairs(defaults) do
    local node = nested
    local parts = vim.split(key, '.', { plain = true })
    for i = 1, #parts - 1 do
      node[parts[i]] = node[parts[i]] or {}
      node = node[parts[i]]
    end
    node[parts[#parts]] = value
  end
  local _, problems = config.validate({ settings = nested })
  H.eq(problems, {}, 'problems for DESIGN defaults')
  local _, bad_enum = config.validate({ settings = { provider = fixture.provider } })
  H.eq(#bad_enum, 1, 'the literal "auto|openai|anthropic" is rejected')
  local _, bad_refine = config.validate({ settings = { refine = { maxRounds = 0, candidates = 1.5, timeoutSeconds = 0,
    preview = 'yes', rounds = 3 } } })
  local refine_text = table.concat(bad_refine, '\n')
  for _, expected in ipairs({
    'vim.g.greenlight.settings.refine.maxRounds: expected an integer >= 1, got number 0',
    'vim.g.greenlight.settings.refine.candidates: expected an integer >= 1, got number 1.5',
    'vim.g.greenlight.settings.refine.timeoutSeconds: expected a number > 0, got number 0',
    'vim.g.greenlight.settings.refine.preview: expected true or false, got string "yes"',
    'vim.g.greenlight.settings.refine.rounds: unknown key (known: candidates, maxRounds, preview, requireCoverage, timeoutSeconds)',
  }) do
    H.contains(refine_text, expected, 'refine validation')
  end
  local valid_refine, none_refine = config.validate({ settings = { refine = { maxRounds = 5, preview = true } } })
  H.eq(none_refine, {}, 'problems for valid refine settings')
  H.eq(config.server_settings(valid_refine), { refine = { maxRounds = 5, preview = true } }, 'refine settings sent')
  local _, bad_generate = config.validate({ settings = { refine = { requireCoverage = 'yes' }, generate = { testsFirst = 'sometimes' } } })
  local generate_text = table.concat(bad_generate, '\n')
  H.contains(generate_text, 'vim.g.greenlight.settings.refine.requireCoverage: expected true or false, got string "yes"', 'requireCoverage validation')
  H.contains(generate_text, 'vim.g.greenlight.settings.generate.testsFirst: expected one of "ask", "always", "never", got string "sometimes"',
    'testsFirst validation')
  local valid_generate, none_generate = config.validate({ settings = { refine = { requireCoverage = true }, generate = { testsFirst = 'never' } } })
  H.eq(none_generate, {}, 'problems for valid requireCoverage / testsFirst')
  H.eq(config.server_settings(valid_generate), { refine = { requireCoverage = true }, generate = { testsFirst = 'never' } },
    'requireCoverage / testsFirst sent')

  H.step('no vim.g.greenlight: defaults, nothing sent')
  vim.g.greenlight = nil
  local cfg, none = config.validate(vim.g.greenlight)
  H.eq(none, {}, 'problems')
  H.eq(cfg.filetypes, { 'python', 'javascript', 'cpp' }, 'filetypes')
  H.eq(vim.json.encode(config.server_settings(cfg)), '{}', 'empty settings encode as an object')

  H.step('valid settings are sent as given, nested, null kept')
  vim.g.greenlight = {
    server = { extra_args = { '--log-level', 'debug' } },
    settings = { sandbox = { timeLimitSeconds = 2.5, network = false }, baseUrl = vim.NIL, tests = { command = { 'make', '{file}' } } },
  }
  cfg, problems = config.get()
  H.eq(problems, {}, 'problems')
  H.eq(vim.json.decode(vim.json.encode(config.server_settings(cfg))),
    vim.json.decode('{"sandbox":{"timeLimitSeconds":2.5,"network":false},"baseUrl":null,"tests":{"command":["make","{file}"]}}'),
    'server settings')
  H.eq(config.server_subsection(cfg, 'sandbox.network'), false, 'subsection sandbox.network')
  H.eq(config.server_subsection(cfg, 'cxx'), vim.NIL, 'unset subsection')

  H.step('invalid vim.g.greenlight: one message naming every bad key, once')
  local dir = H.tempdir('config')
  H.write(dir .. '/calc.py', { 'def add(a, b):', '    return a + b' })
  H.write(dir .. '/other.py', { 'x = 1' })
  vim.g.greenlight = {
    sever = { path = 'x' },
    progress = 'loud',
    filetypes = 'python',
    server = { path = dir .. '/no-such-greenlight', extra_args = { 1 } },
    settings = { provider = 'gpt', maxTokens = 1.5, sandbox = { timeLimitSeconds = 'x', bogus = true }, cxx = { flags = '-O2' } },
  }
  H.notifications = {}
  vim.cmd('edit ' .. dir .. '/calc.py')
  H.wait(2000, function() return #H.notifications >= 2 end, 'the validation and binary messages')
  local validation = vim.tbl_filter(function(n) return n.msg:find('invalid configuration', 1, true) end, H.notifications)
  H.eq(#validation, 1, 'validation messages')
  local msg = validation[1].msg
  H.eq(validation[1].level, vim.log.levels.ERROR, 'level')
  for _, expected in ipairs({
    'vim.g.greenlight.sever: unknown key',
    'vim.g.greenlight.progress: expected one of "auto", "echo", "notify", "off", got string "loud"',
    'vim.g.greenlight.filetypes: expected a list of strings, got string "python"',
    'vim.g.greenlight.server.extra_args: expected a list of strings',
    'vim.g.greenlight.settings.provider: expected one of "auto", "openai", "anthropic", got string "gpt"',
    'vim.g.greenlight.settings.maxTokens: expected an integer >= 1, got number 1.5',
    'vim.g.greenlight.settings.sandbox.timeLimitSeconds: expected a number > 0 or vim.NIL, got string "x"',
    'vim.g.greenlight.settings.sandbox.bogus: unknown key',
    'vim.g.greenlight.settings.cxx.flags: expected a list of strings, got string "-O2"',
  }) do
    H.contains(msg, expected, 'validation message')
  end
  -- The bad filetypes value fell back to the default, so the python buffer tried to start a
  -- server, and the configured (missing) binary is reported, not silently replaced.
  local binary = vim.tbl_filter(function(n) return n.msg:find('no-such-greenlight', 1, true) end, H.notifications)
  H.check(#binary >= 1, 'no message about the missing server.path binary')
  H.contains(binary[1].msg, 'is not an executable file', 'binary message')
  H.eq(#require('greenlight').clients(), 0, 'clients started with a missing binary')
  -- One clear line, not "Error executing lua callback" with a stack trace out of the FileType
  -- autocmd (what 0.10 showed when the error was notified synchronously).
  local messages = vim.fn.execute('messages')
  H.check(not messages:find('stack traceback', 1, true) and not messages:find('Error executing', 1, true),
    'the missing binary produced a stack trace:\n' .. messages)

  local before = #H.notifications
  vim.cmd('edit ' .. dir .. '/other.py')
  vim.wait(300)
  local repeated = vim.tbl_filter(function(n) return n.msg:find('invalid configuration', 1, true) end,
    vim.list_slice(H.notifications, before + 1))
  H.eq(#repeated, 0, 'the same problems reported again for a second buffer')
  local binary_again = vim.tbl_filter(function(n) return n.msg:find('no-such-greenlight', 1, true) end,
    vim.list_slice(H.notifications, before + 1))
  H.eq(#binary_again, 0, 'the missing binary reported again for a second buffer')

  H.step('help tags build without duplicates')
  local docdir = H.tempdir('doc')
  vim.fn.writefile(vim.fn.readfile(H.env('GREENLIGHT_NVIM_PLUGIN') .. '/doc/greenlight.txt'), docdir .. '/greenlight.txt')
  vim.cmd('helptags ' .. docdir)
  local tags = table.concat(vim.fn.readfile(docdir .. '/tags'), '\n')
  for _, tag in ipairs({ 'greenlight.txt', 'greenlight-config', 'g:greenlight', ':GreenlightRunTests', ':GreenlightCancel',
    ':GreenlightRestart', ':GreenlightGenerate', ':GreenlightFix', 'greenlight-preview', 'greenlight-codelens',
    'greenlight-progress', 'greenlight-health', 'greenlight-validation', ':GreenlightTests', 'greenlight-tests',
    'greenlight-neotest', ':GreenlightCoverage', 'greenlight-coverage', 'GreenlightNotRun' }) do
    H.check(tags:find(tag .. '\t', 1, true) ~= nil, 'missing help tag ' .. tag)
  end
end)
