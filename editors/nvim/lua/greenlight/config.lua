-- The plugin's configuration: defaults, and the ONE place vim.g.greenlight is validated.
--
-- vim.g.greenlight is optional. Every key is checked against the schema below; an invalid or
-- unknown key is reported (once per distinct set of problems) with its full path, what was
-- expected and what happens instead, and the rest of the configuration still applies.
--
-- settings = the server's "greenlight" section (DESIGN.md "Configuration"). Only what the user
-- put there is sent to the server: the server layers defaults < environment <
-- .greenlight.json < initializationOptions < workspace/configuration, so sending defaults for
-- keys the user never set would override the project's .greenlight.json.
local islist = require('greenlight.compat').islist

local M = {}

M.defaults = {
  autostart = true,
  filetypes = { 'python', 'javascript', 'cpp' },
  root_markers = { '.greenlight.json', '.git' },
  server = { path = nil, extra_args = {} },
  progress = 'auto',
  codelens = true,
  -- Signs on the lines no test ran (from the runs' coverage); :GreenlightCoverage toggles.
  coverage = true,
  settings = {},
  capabilities = nil,
  on_attach = nil,
}

-- Validators: each returns true, or false and what was expected.
local function kind(expected, check)
  return { expected = expected, check = check }
end
local function is_list_of_strings(v)
  if type(v) ~= 'table' or (next(v) ~= nil and not islist(v)) then return false end
  for _, s in ipairs(v) do
    if type(s) ~= 'string' then return false end
  end
  return true
end
local function number(opts)
  local parts = {}
  if opts.min then table.insert(parts, '>= ' .. opts.min) end
  if opts.above then table.insert(parts, '> ' .. opts.above) end
  if opts.max then table.insert(parts, '<= ' .. opts.max) end
  local what = (opts.integer and 'an integer' or 'a number') .. (#parts > 0 and (' ' .. table.concat(parts, ' and ')) or '')
  return kind(what, function(v)
    return type(v) == 'number' and v == v and v ~= math.huge and v ~= -math.huge
      and (not opts.integer or math.floor(v) == v)
      and (opts.min == nil or v >= opts.min)
      and (opts.above == nil or v > opts.above)
      and (opts.max == nil or v <= opts.max)
  end)
end
-- vim.NIL lets the server choose (sandbox.timeLimitSeconds: fitted to the suite).
local function nullable_number(opts)
  local inner = number(opts)
  return kind(inner.expected .. ' or vim.NIL', function(v) return v == vim.NIL or inner.check(v) end)
end
local function enum(values)
  local quoted = vim.tbl_map(function(s) return '"' .. s .. '"' end, values)
  return kind('one of ' .. table.concat(quoted, ', '), function(v) return vim.tbl_contains(values, v) end)
end
local string_kind = kind('a non-empty string', function(v) return type(v) == 'string' and v ~= '' end)
local nullable_string = kind('a string or vim.NIL', function(v) return v == vim.NIL or type(v) == 'string' end)
local boolean = kind('true or false', function(v) return type(v) == 'boolean' end)
local string_list = kind('a list of strings', is_list_of_strings)
local nullable_string_list = kind('a list of strings or vim.NIL', function(v) return v == vim.NIL or is_list_of_strings(v) end)

-- The "greenlight" section, as in DESIGN.md. Nested tables are sub-sections.
M.settings_schema = {
  provider = enum({ 'auto', 'openai', 'anthropic' }),
  baseUrl = nullable_string,
  model = nullable_string,
  apiKeyEnv = nullable_string,
  temperature = number({ min = 0, max = 2 }),
  maxTokens = number({ integer = true, min = 1 }),
  timeoutSeconds = number({ above = 0 }),
  maxRetries = number({ integer = true, min = 0 }),
  refine = {
    maxRounds = number({ integer = true, min = 1 }),
    candidates = number({ integer = true, min = 1 }),
    timeoutSeconds = number({ above = 0 }),
    preview = boolean,
    -- true: a passing candidate with new lines the tests never ran gets one more round.
    requireCoverage = boolean,
  },
  -- With no tests and no examples: "ask"/"always" ask the model for tests first (shown in the
  -- preview to accept), "never" keeps the unverified result.
  generate = { testsFirst = enum({ 'ask', 'always', 'never' }) },
  runOnSave = boolean,
  sandbox = {
    timeLimitSeconds = nullable_number({ above = 0 }),
    memoryLimitMB = number({ integer = true, min = 1 }),
    processes = number({ integer = true, min = 1 }),
    outputLimitKB = number({ integer = true, min = 1 }),
    network = boolean,
    allowUnsandboxed = boolean,
    warmInterpreters = boolean,
  },
  tests = { command = nullable_string_list },
  python = { interpreter = string_kind },
  node = { path = string_kind },
  cxx = { compiler = string_kind, flags = string_list },
}

local plugin_schema = {
  autostart = boolean,
  filetypes = string_list,
  root_markers = string_list,
  server = {
    path = kind('a non-empty string (path or name of the greenlight binary)', function(v)
      return type(v) == 'string' and v ~= ''
    end),
    extra_args = string_list,
  },
  progress = enum({ 'auto', 'echo', 'notify', 'off' }),
  codelens = boolean,
  coverage = boolean,
  settings = M.settings_schema,
  capabilities = kind('a table (merged into the client capabilities)', function(v)
    return type(v) == 'table' and v ~= vim.NIL
  end),
  on_attach = kind('a function', function(v) return type(v) == 'function' end),
}

local function describe(v)
  if v == vim.NIL then return 'vim.NIL' end
  if type(v) == 'string' then return string.format('string "%s"', v) end
  if type(v) == 'table' then return 'a table ' .. vim.inspect(v, { newline = ' ', indent = '' }) end
  return type(v) .. ' ' .. tostring(v)
end

local function is_validator(node)
  return node.check ~= nil and node.expected ~= nil
end

local function sorted_keys(t)
  local keys = vim.tbl_keys(t)
  table.sort(keys)
  return keys
end

-- Walks `value` against `schema`; returns a cleaned copy holding only valid entries and appends
-- problems. `defaults_note` says what happens to a rejected value at this level.
local function walk(schema, value, path, problems, defaults_note)
  if type(value) ~= 'table' or value == vim.NIL or (next(value) ~= nil and islist(value)) then
    table.insert(problems, string.format('%s: expected a table, got %s; %s', path, describe(value), defaults_note))
    return {}
  end
  local clean = {}
  for _, key in ipairs(sorted_keys(value)) do
    local v = value[key]
    local sub = type(key) == 'string' and schema[key] or nil
    local key_path = path .. '.' .. tostring(key)
    if sub == nil then
      table.insert(problems, string.format('%s: unknown key (known: %s); ignored', key_path, table.concat(sorted_keys(schema), ', ')))
    elseif is_validator(sub) then
      if sub.check(v) then
        clean[key] = v
      else
        table.insert(problems, string.format('%s: expected %s, got %s; %s', key_path, sub.expected, describe(v), defaults_note))
      end
    else
      local nested = walk(sub, v, key_path, problems, defaults_note)
      if next(nested) ~= nil then clean[key] = nested end
    end
  end
  return clean
end

local copy

local function merge(defaults, user)
  local out = copy(defaults)
  for k, v in pairs(user) do
    if type(v) == 'table' and type(out[k]) == 'table' and not islist(v) and k ~= 'settings' then
      out[k] = merge(out[k], v)
    else
      out[k] = v
    end
  end
  return out
end

-- Validates a user table (vim.g.greenlight). Returns the effective configuration (defaults for
-- anything missing or invalid; `settings` only what is valid and set) and the problems.
function M.validate(user)
  local problems = {}
  if user == nil then return copy(M.defaults), problems end
  local clean = {}
  if type(user) ~= 'table' or user == vim.NIL then
    table.insert(problems, string.format('vim.g.greenlight: expected a table, got %s; using the defaults', describe(user)))
  else
    local top = {}
    for k, v in pairs(plugin_schema) do top[k] = v end
    top.settings = nil
    local user_without_settings = {}
    for k, v in pairs(user) do
      if k ~= 'settings' then user_without_settings[k] = v end
    end
    clean = walk(top, user_without_settings, 'vim.g.greenlight', problems, 'using the default')
    if user.settings ~= nil then
      clean.settings = walk(M.settings_schema, user.settings, 'vim.g.greenlight.settings', problems,
        'not sent to the server (its own layers decide)')
    end
  end
  return merge(M.defaults, clean), problems
end

local last_reported = nil

-- The effective configuration, read fresh from vim.g.greenlight. Problems are reported with
-- vim.notify(ERROR) once per distinct set, so a bad setting is not repeated for every buffer.
function M.get()
  local cfg, problems = M.validate(vim.g.greenlight)
  local text = table.concat(problems, '\n')
  if text ~= '' and text ~= last_reported then
    -- Scheduled: an error notified inside an autocmd would be wrapped in "Error detected while
    -- processing FileType Autocommands", which hides the message.
    vim.schedule(function() vim.notify('greenlight: invalid configuration:\n' .. text, vim.log.levels.ERROR) end)
  end
  last_reported = text
  return cfg, problems
end

-- vim.deepcopy cannot copy vim.NIL (userdata) on 0.7; settings may hold it (JSON null).
copy = function(v)
  if type(v) ~= 'table' then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x) end
  return out
end

-- JSON objects must stay objects even when empty (vim.json encodes {} as []).
local function as_object(t)
  if type(t) ~= 'table' or t == vim.NIL then return t end
  if next(t) == nil then return vim.empty_dict() end
  if islist(t) then return t end
  local out = {}
  for k, v in pairs(t) do
    out[k] = (type(v) == 'table' and not islist(v)) and as_object(v) or v
  end
  return out
end

-- The "greenlight" section sent to the server: only what the user set.
function M.server_settings(cfg)
  return as_object(copy(cfg.settings or {}))
end

-- A sub-section ("sandbox") for a server that asks for "greenlight.sandbox"; vim.NIL when unset.
function M.server_subsection(cfg, section)
  local node = cfg.settings or {}
  for part in string.gmatch(section, '[^.]+') do
    if type(node) ~= 'table' then return vim.NIL end
    node = node[part]
  end
  if node == nil then return vim.NIL end
  return as_object(copy(node))
end

return M
