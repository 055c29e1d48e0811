-- A neotest adapter for greenlight, inside the plugin and used only when neotest is installed
-- and its setup names it:
--
--   require('neotest').setup({ adapters = { require('neotest-greenlight') } })
--
-- Positions come from the server (greenlight/listWorkspaceTests for the file, which reads it and
-- runs nothing; greenlight/listTests for a file it does not list: files -> classes / describe
-- blocks -> tests, with the server's stable ids); neotest walks the workspace itself with
-- filter_dir and is_test_file, which skip and recognise what the server's listing does, runs go through it (greenlight.runTests with the ids of
-- what neotest asked to run, in the sandbox, unsaved text included), and results stream from
-- greenlight/testResults into neotest's `stream` as each test finishes. Nothing here starts a
-- process of its own: the RunSpec carries a strategy function that talks to the greenlight
-- client of the file (started for its workspace when no buffer of it is open yet).
--
-- Neotest runs adapter functions in nvim-nio tasks; this module requires nio only when neotest
-- calls it, so loading the plugin never needs neotest or nio.
local compat = require('greenlight.compat')

local M = { name = 'greenlight' }

-- The directories the server's workspace listing skips (core/testing/WorkspaceTests.h): dot
-- directories, dependencies, virtualenvs, caches, build output.
local kSkipDirs = { node_modules = true, bower_components = true, jspm_packages = true, __pycache__ = true,
  ['site-packages'] = true, ['dist-packages'] = true, build = true, dist = true, out = true, target = true, _build = true,
  htmlcov = true, coverage = true, venv = true, __pypackages__ = true }

local function nio()
  return require('nio')
end

-- The project root: the nearest directory with one of the plugin's root markers (the same
-- root the plugin's client for a file there has), else nil.
function M.root(dir)
  nio().scheduler()
  local markers = require('greenlight.config').get().root_markers or { '.greenlight.json', '.git' }
  local current = vim.fn.fnamemodify(dir, ':p'):gsub('/+$', '')
  if current == '' then current = '/' end
  while true do
    for _, marker in ipairs(markers) do
      if compat.uv.fs_stat(current .. '/' .. marker) then return current end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then return nil end
    current = parent
  end
end

function M.filter_dir(name, rel_path, root)
  if name:sub(1, 1) == '.' or kSkipDirs[name] or name:match('^build%-') or name:match('^cmake%-build%-') or name:match('%.egg%-info$') then
    return false
  end
  -- A virtualenv or a CMake build tree under any name.
  local dir = rel_path and root and (root .. '/' .. rel_path) or nil
  if dir and (compat.uv.fs_stat(dir .. '/pyvenv.cfg') or compat.uv.fs_stat(dir .. '/CMakeCache.txt')) then return false end
  return true
end

-- Test files by greenlight's naming rules (DESIGN.md "Nearby tests").
function M.is_test_file(path)
  local name = path:match('[^/]+$') or path
  if name:match('^test_.+%.py$') or name:match('.+_test%.py$') then return true end
  for _, ext in ipairs({ 'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx' }) do
    if name:match('%.test%.' .. ext .. '$') or name:match('%.spec%.' .. ext .. '$') then return true end
    if path:match('/__tests__/[^/]+%.' .. ext .. '$') then return true end
  end
  if name:match('.+_test%.cpp$') or name:match('.+_test%.cc$') or name:match('.+_test%.cxx$') then return true end
  if name:match('^test_.+%.cpp$') or name:match('^test_.+%.cc$') or name:match('^test_.+%.cxx$') then return true end
  return false
end

-- The live greenlight client that serves `path`: one whose root holds it, else one started for
-- its workspace (no buffer is loaded for it). Async.
local function client_for(path)
  nio().scheduler()
  local greenlight = require('greenlight')
  for _, client in ipairs(greenlight.clients()) do
    local root = client.config.root_dir
    if root and (path == root or path:sub(1, #root + 1) == root .. '/') then return client end
  end
  local id, err = greenlight.start_root(vim.fn.fnamemodify(path, ':h'))
  if not id then error('greenlight: no server for ' .. path .. ': ' .. tostring(err)) end
  for _ = 1, 1500 do
    local client = compat.get_client(id)
    if client and client.initialized then return client end
    nio().sleep(20)
  end
  error('greenlight: the server for ' .. path .. ' did not start')
end

-- An LSP request from a nio task: waits for the answer.
local function request(client, method, params)
  local future = nio().control.future()
  nio().scheduler()
  local ok = compat.call(client, 'request', method, params, function(err, result)
    if err then
      future.set_error(method .. ': ' .. (err.message or vim.inspect(err)))
    else
      future.set(result)
    end
  end)
  if not ok then error('greenlight: could not send ' .. method) end
  return future.wait()
end

local kTypes = { file = 'file', group = 'namespace', test = 'test', case = 'test' }

-- neotest's id of a greenlight id: the file's path for a file, `path::rest` below it.
local function neotest_id(path, file_key, id)
  if id == file_key then return path end
  if id:sub(1, #file_key + 2) == file_key .. '::' then return path .. '::' .. id:sub(#file_key + 3) end
  return nil
end

---@async
function M.discover_positions(path)
  local client = client_for(path)
  local uri = vim.uri_from_fname(path)
  local function file_of(result)
    for _, item in ipairs(result.items or {}) do
      if item.kind == 'file' and vim.uri_to_fname(item.uri) == path then return item.id end
    end
    return nil
  end
  -- The workspace listing of this one file (no process runs); a server without it, or a file
  -- it does not list (a project pattern only the runner knows), asks listTests.
  local ok, result = pcall(request, client, 'greenlight/listWorkspaceTests', { uris = { uri } })
  if not ok or type(result) ~= 'table' or not file_of(result) then
    result = request(client, 'greenlight/listTests', { textDocument = { uri = uri } }) or {}
  end
  local file_key = file_of(result)
  if not file_key then return nil end
  local nodes, children = {}, {}
  for _, item in ipairs(result.items or {}) do
    local id = neotest_id(path, file_key, item.id)
    if id then
      local r = item.range or { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }
      nodes[item.id] = {
        id = id,
        type = kTypes[item.kind] or 'test',
        name = item.kind == 'file' and (path:match('[^/]+$') or path) or item.label,
        path = path,
        range = { r.start.line, r.start.character, r['end'].line, r['end'].character },
        greenlight_id = item.id,
        greenlight_file = file_key,
      }
      local parent = item.parent ~= vim.NIL and item.parent or nil
      if parent then
        children[parent] = children[parent] or {}
        table.insert(children[parent], item.id)
      end
    end
  end
  local function build(id)
    local list = { nodes[id] }
    for _, child in ipairs(children[id] or {}) do
      if nodes[child] then table.insert(list, build(child)) end
    end
    return list
  end
  return require('neotest.types').Tree.from_list(build(file_key), function(pos) return pos.id end)
end

local kStatus = { passed = 'passed', failed = 'failed', errored = 'failed', skipped = 'skipped' }

-- greenlight results -> neotest results (those of the run's file), keyed by neotest id.
local function convert(context, results)
  local out = {}
  for _, r in ipairs(results or {}) do
    local status = kStatus[r.status]
    local id = status and neotest_id(context.path, context.file_key, r.id)
    if id then
      local entry = { status = status }
      if type(r.message) == 'string' and r.message ~= '' then
        entry.short = r.label .. ': ' .. r.message
        local loc = type(r.location) == 'table' and r.location or nil
        local line = loc and loc.uri and vim.uri_to_fname(loc.uri) == context.path and loc.range and loc.range.start.line or nil
        entry.errors = { { message = r.message, line = line } }
      end
      out[id] = entry
    end
  end
  return out
end

-- The neotest "process" of one greenlight.runTests request.
local function start_run(spec)
  local context = spec.context
  local queue = nio().control.queue()
  local done = nio().control.future()
  local client = client_for(context.path)
  nio().scheduler()
  local output_path = vim.fn.tempname()
  local report = {}
  local finished = false
  local function finish(code)
    if finished then return end
    finished = true
    context.unsubscribe()
    local f = io.open(output_path, 'w')
    if f then
      f:write(table.concat(report, '\n') .. '\n')
      f:close()
    end
    queue.put_nowait(false)
    done.set(code)
  end
  context.unsubscribe = require('greenlight.tests').subscribe(function(client_id, params)
    if client_id ~= client.id or type(params.results) ~= 'table' then return end
    local mine = {}
    for _, r in ipairs(params.results) do
      if kStatus[r.status] and neotest_id(context.path, context.file_key, r.id) then
        table.insert(mine, r)
        context.collected[r.id] = r
      end
    end
    if #mine > 0 then queue.put_nowait(vim.json.encode({ state = params.run and params.run.state, results = mine }) .. '\n') end
  end)
  local ok, request_id = compat.call(client, 'request', 'workspace/executeCommand',
    { command = 'greenlight.runTests', arguments = { context.arguments } }, function(err, result)
      if err then
        table.insert(report, 'greenlight.runTests: ' .. (err.message or vim.inspect(err)))
        return finish(1)
      end
      for _, r in pairs(context.collected) do
        table.insert(report, string.format('%s %s%s', r.status, r.id, r.message and ('\n  ' .. r.message:gsub('\n', '\n  ')) or ''))
      end
      table.sort(report)
      local failed = type(result) == 'table' and ((result.failed or 0) + (result.errors or 0)) or 1
      table.insert(report, string.format('%s passed, %s failed', tostring(result and result.passed), tostring(failed)))
      finish(failed == 0 and 0 or 1)
    end)
  if not ok then
    table.insert(report, 'could not send greenlight.runTests')
    finish(1)
  end
  return {
    is_complete = function() return done.is_set() end,
    result = function() return done.wait() end,
    output = function()
      done.wait()
      return output_path
    end,
    output_stream = function()
      return function()
        local data = queue.get()
        if data == false then return nil end
        return data
      end
    end,
    attach = function() end,
    stop = function()
      -- The server answers a cancelled request -32800, which Neovim drops: end here.
      nio().scheduler()
      if ok and request_id then compat.call(client, 'cancel_request', request_id) end
      table.insert(report, 'cancelled')
      finish(1)
    end,
  }
end

function M.build_spec(args)
  local pos = args.tree:data()
  -- A directory: neotest breaks it down into its files.
  if pos.type == 'dir' or not pos.greenlight_file then return nil end
  local arguments = { uri = vim.uri_from_fname(pos.path) }
  if pos.type ~= 'file' then arguments.tests = { pos.greenlight_id } end
  local context = { path = pos.path, file_key = pos.greenlight_file, arguments = arguments, collected = {},
    unsubscribe = function() end }
  return {
    -- Not a process: the strategy sends greenlight.runTests to the server.
    command = { 'greenlight.runTests', arguments.uri },
    context = context,
    strategy = function(spec) return start_run(spec) end,
    stream = function(output_stream)
      return function()
        local lines = output_stream()
        if lines == nil then return nil end
        local results = {}
        for _, line in ipairs(lines) do
          local ok, decoded = pcall(vim.json.decode, line)
          if ok and type(decoded) == 'table' then
            for id, r in pairs(convert(context, decoded.results)) do results[id] = r end
          end
        end
        return results
      end
    end,
  }
end

---@async
function M.results(spec, result, tree)
  local context = spec.context
  local list = {}
  for _, r in pairs(context.collected) do table.insert(list, r) end
  local out = convert(context, list)
  -- A test reported only through its parametrize cases takes the worst of them.
  for _, node in tree:iter_nodes() do
    local pos = node:data()
    if pos.type == 'test' and not out[pos.id] then
      for id, r in pairs(out) do
        if id:sub(1, #pos.id + 1) == pos.id .. '[' and (not out[pos.id] or r.status == 'failed') then
          out[pos.id] = { status = r.status, short = r.short, errors = r.errors }
        end
      end
    end
  end
  for _, r in pairs(out) do r.output = result and result.output end
  return out
end

return M
