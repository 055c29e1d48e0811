-- The plugin's test view: the tests the server lists (the whole workspace's from the server's
-- start, greenlight/listWorkspaceTests; the tests near each open file, greenlight/listTests) and
-- what the last runs said of them (greenlight/testResults, whatever ran them: :GreenlightRunTests, a save, a
-- generation), the :GreenlightTests summary window, and the listeners the neotest adapter
-- (lua/neotest-greenlight) subscribes with.
--
-- The summary window lists folders -> files -> classes / describe blocks -> tests with a status sign
-- (✔ passed, ✘ failed, ! errored, ○ skipped, … queued or running), the duration and the failure's
-- first line, and below the tests what the last runs ran of each covered file ("m.py · 9/12 lines
-- run"; <CR> goes to the first line no test ran). Keys: <CR> jumps to the test (to the failing assertion when it failed), r runs the
-- test (or the file / group) under the cursor, g generates or fixes the code a failing test
-- exercises (greenlight.fix on its diagnostic: a stub is written, wrong code rewritten), R lists
-- the tests again, q closes. A folder the server's budget did not reach shows "(<CR> lists it)":
-- a large repository is listed folder by folder. Saved files and files changed while Neovim was
-- in the background (FocusGained) are listed again.
local compat = require('greenlight.compat')

local M = {}

M.signs = { passed = '✔', failed = '✘', errored = '!', skipped = '○', queued = '…', started = '…', none = '·' }

-- state[client_id] = { items = { [id] = item }, order = { id, ... }, results = { [id] = result } }
M.state = {}
local listeners = {}
local next_listener = 0

local function state(client_id)
  local st = M.state[client_id]
  if not st then
    st = { items = {}, order = {}, results = {} }
    M.state[client_id] = st
  end
  return st
end

-- Calls fn(client_id, params) for every greenlight/testResults notification; returns a function
-- that unsubscribes.
function M.subscribe(fn)
  next_listener = next_listener + 1
  local key = next_listener
  listeners[key] = fn
  return function() listeners[key] = nil end
end

local function remember(st, item)
  if not st.items[item.id] then table.insert(st.order, item.id) end
  st.items[item.id] = vim.tbl_extend('force', st.items[item.id] or {}, item)
end

local render_pending = false
local function schedule_render()
  if render_pending then return end
  render_pending = true
  vim.schedule(function()
    render_pending = false
    M.render()
  end)
end

-- greenlight/testResults (server -> client).
function M.results_handler(err, params, ctx)
  if err or type(params) ~= 'table' then return vim.NIL end
  local st = state(ctx.client_id)
  for _, r in ipairs(params.results or {}) do
    if type(r) == 'table' and type(r.id) == 'string' then
      st.results[r.id] = r
      if not st.items[r.id] then
        -- A parametrize case, or a test the listing did not know: shown under its parent.
        local where = type(r.location) == 'table' and r.location or {}
        remember(st, { id = r.id, label = r.label or r.id, kind = r.id:find('%]$') and 'case' or 'test',
          parent = r.parent ~= vim.NIL and r.parent or nil, uri = where.uri, range = where.range })
      end
    end
  end
  require('greenlight.coverage').on_results(ctx.client_id, params)
  for _, fn in pairs(listeners) do pcall(fn, ctx.client_id, params) end
  schedule_render()
  return vim.NIL
end

local function under(path, dir)
  return path == dir or path:sub(1, #dir + 1) == dir .. '/'
end

local function fname(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  return ok and path or nil
end

-- Drops `ids` and everything below them.
local function drop(st, ids)
  local gone = {}
  for _, id in ipairs(ids) do gone[id] = true end
  local changed = true
  while changed do
    changed = false
    for id, item in pairs(st.items) do
      if not gone[id] and item.parent and gone[item.parent] then
        gone[id] = true
        changed = true
      end
    end
  end
  for id in pairs(gone) do st.items[id] = nil end
  st.order = vim.tbl_filter(function(id) return not gone[id] end, st.order)
end

-- Merges a greenlight/listWorkspaceTests answer for `scope` ({} the workspace, {folder = uri},
-- {uris = {...}}): what it walked and no longer lists goes (only what a workspace listing gave:
-- a source file's doctests come from listTests), then its items, then folders left empty.
local function merge_workspace(st, result, scope, root)
  local listed, unresolved = {}, {}
  for _, item in ipairs(result.items or {}) do
    listed[item.id] = true
    if item.kind == 'folder' and item.resolved == false then table.insert(unresolved, fname(item.uri)) end
  end
  local walked = {}
  if scope.uris then
    for _, u in ipairs(scope.uris) do table.insert(walked, fname(u)) end
  elseif scope.folder then
    table.insert(walked, fname(scope.folder))
  elseif root then
    table.insert(walked, root)
  end
  local stale = {}
  for id, item in pairs(st.items) do
    local path = item.workspace and not listed[id] and item.uri and fname(item.uri)
    if path then
      local in_walked = vim.tbl_contains(vim.tbl_map(function(d) return d and under(path, d) end, walked), true)
      local in_unresolved = vim.tbl_contains(vim.tbl_map(function(d) return d and under(path, d) end, unresolved), true)
      if in_walked and not in_unresolved then table.insert(stale, id) end
    end
  end
  drop(st, stale)
  for _, item in ipairs(result.items or {}) do
    if item.parent == vim.NIL then item.parent = nil end
    if item.kind == 'file' or item.kind == 'folder' then item.workspace = true end
    if item.kind == 'folder' and item.resolved == nil and st.items[item.id] then item.resolved = st.items[item.id].resolved end
    remember(st, item)
    -- A test file is listed with its tests (resolved nil) or without them (false: the server's
    -- time budget ran out; <CR> asks listTests).
    if item.kind == 'file' then st.items[item.id].resolved = item.resolved end
  end
  -- Folders with nothing left in them go (an unresolved one may still hold tests).
  local changed = true
  while changed do
    changed = false
    local has_child = {}
    for _, item in pairs(st.items) do
      if item.parent then has_child[item.parent] = true end
    end
    local empty = {}
    for id, item in pairs(st.items) do
      if item.kind == 'folder' and item.resolved ~= false and not has_child[id] then table.insert(empty, id) end
    end
    if #empty > 0 then
      drop(st, empty)
      changed = true
    end
  end
end

-- Asks `client` for the workspace's tests (scope: nil or {} the workspace, {folder = uri}, or
-- {uris = {...}} changed paths); merges them and calls done(items or nil, err).
function M.list_workspace(client, scope, done)
  scope = scope or {}
  local params = vim.empty_dict()
  if scope.folder then params = { folder = scope.folder } end
  if scope.uris then params = { uris = scope.uris } end
  local root = client.config and client.config.root_dir
  local ok = compat.call(client, 'request', 'greenlight/listWorkspaceTests', params, function(err, result)
    if not err and type(result) == 'table' then merge_workspace(state(client.id), result, scope, root) end
    if done then done(result and result.items, err) end
    schedule_render()
  end)
  if not ok and done then done(nil, { message = 'could not send greenlight/listWorkspaceTests' }) end
end

-- A file was saved (or changed outside): list it again in every client whose root holds it.
function M.changed(path)
  if type(path) ~= 'string' or path == '' then return end
  for _, client in ipairs(require('greenlight').clients()) do
    local root = client.config and client.config.root_dir
    if root and under(path, root) and M.state[client.id] then
      M.list_workspace(client, { uris = { vim.uri_from_fname(path) } })
    end
  end
end

-- Asks `client` for the tests near `uri`; merges them and calls done(items or nil, err).
function M.list(client, uri, done)
  local ok = compat.call(client, 'request', 'greenlight/listTests', { textDocument = { uri = uri } }, function(err, result)
    if not err and type(result) == 'table' then
      local st = state(client.id)
      for _, item in ipairs(result.items or {}) do
        if item.parent == vim.NIL then item.parent = nil end
        -- listTests knows no folders: a file the workspace listing put in its folder stays there.
        local known = st.items[item.id]
        if item.kind == 'file' and not item.parent and known and known.parent then item.parent = known.parent end
        remember(st, item)
        if item.kind == 'file' then st.items[item.id].resolved = nil end
      end
    end
    if done then done(result and result.items, err) end
    schedule_render()
  end)
  if not ok and done then done(nil, { message = 'could not send greenlight/listTests' }) end
end

-- The status of a node: its own result, else the worst of its children's.
local kRank = { failed = 6, errored = 5, started = 4, queued = 3, passed = 2, skipped = 1 }
local function status_of(st, id, children)
  local r = st.results[id]
  if r and r.status then return r.status end
  local worst
  for _, child in ipairs(children[id] or {}) do
    local s = status_of(st, child, children)
    if s and (not worst or (kRank[s] or 0) > (kRank[worst] or 0)) then worst = s end
  end
  return worst
end

-- The view's lines: { text, id, client_id, depth, status } in tree order.
function M.lines()
  local out = {}
  local clients = {}
  for client_id, _ in pairs(M.state) do
    if compat.get_client(client_id) then table.insert(clients, client_id) end
  end
  table.sort(clients)
  for _, client_id in ipairs(clients) do
    local st = M.state[client_id]
    local client = compat.get_client(client_id)
    if #clients > 1 then table.insert(out, { text = client.config.root_dir or '?', client_id = client_id, depth = 0 }) end
    local children, roots = {}, {}
    for _, id in ipairs(st.order) do
      local item = st.items[id]
      local parent = item.parent
      -- A parent the listing does not have (a case whose test is unknown): its file.
      if parent and not st.items[parent] then
        local file = parent:match('^(.-)::') or parent
        parent = st.items[file] and file or nil
      end
      if parent then
        children[parent] = children[parent] or {}
        table.insert(children[parent], id)
      else
        table.insert(roots, id)
      end
    end
    local function walk(id, depth)
      local item = st.items[id]
      local status = status_of(st, id, children)
      local r = st.results[id] or {}
      local label = item.label or id
      if item.kind == 'folder' then label = label .. '/' end
      if item.resolved == false then label = label .. '  (<CR> lists it)' end
      local text = string.rep('  ', depth) .. (M.signs[status or 'none'] or M.signs.none) .. ' ' .. label
      if type(r.durationMs) == 'number' and item.kind ~= 'file' and item.kind ~= 'group' and status ~= 'queued' then
        text = text .. string.format('  %d ms', math.floor(r.durationMs + 0.5))
      end
      if (status == 'failed' or status == 'errored') and type(r.message) == 'string' then
        text = text .. '  ' .. r.message:gsub('\n.*', '')
      end
      table.insert(out, { text = text, id = id, client_id = client_id, depth = depth, status = status })
      for _, child in ipairs(children[id] or {}) do walk(child, depth + 1) end
    end
    for _, id in ipairs(roots) do walk(id, #clients > 1 and 1 or 0) end
    -- What the last runs ran of the code under test (coverage.lua): <CR> goes to the first line
    -- no test ran.
    local covered = require('greenlight.coverage').summary(client_id, client.config and client.config.root_dir)
    if #covered > 0 then
      local depth = #clients > 1 and 1 or 0
      table.insert(out, { text = string.rep('  ', depth) .. 'lines run by the last runs:', client_id = client_id, depth = depth })
      for _, c in ipairs(covered) do
        table.insert(out, { text = string.rep('  ', depth + 1) .. c.text, client_id = client_id, depth = depth + 1,
          coverage = c })
      end
    end
  end
  return out
end

M.view = nil  -- { buf, win, lines }
local kHeader = 'greenlight tests   <CR> jump · r run · g generate/fix · R refresh · q close'

function M.render()
  local view = M.view
  if not view or not vim.api.nvim_buf_is_valid(view.buf) then return end
  view.lines = M.lines()
  local text = { kHeader }
  for _, l in ipairs(view.lines) do table.insert(text, l.text) end
  if #view.lines == 0 then table.insert(text, '(no tests found in the workspace: open a Python, JavaScript or C++ file with tests near it)') end
  vim.bo[view.buf].modifiable = true
  vim.api.nvim_buf_set_lines(view.buf, 0, -1, false, text)
  vim.bo[view.buf].modifiable = false
  local ns = vim.api.nvim_create_namespace('greenlight-tests')
  vim.api.nvim_buf_clear_namespace(view.buf, ns, 0, -1)
  vim.api.nvim_buf_add_highlight(view.buf, ns, 'Title', 0, 0, -1)
  local groups = { passed = 'DiagnosticOk', failed = 'DiagnosticError', errored = 'DiagnosticError', skipped = 'Comment',
    queued = 'DiagnosticInfo', started = 'DiagnosticInfo' }
  for i, l in ipairs(view.lines) do
    local group = groups[l.status or '']
    if group and vim.fn.hlexists(group) == 0 then group = l.status == 'passed' and 'String' or 'ErrorMsg' end
    if group then
      local col = #string.rep('  ', l.depth)
      vim.api.nvim_buf_add_highlight(view.buf, ns, group, i, col, col + #(M.signs[l.status] or ''))
    end
  end
end

-- The line entry under the cursor of the summary window, or nil.
function M.current()
  local view = M.view
  if not view or not view.lines then return nil end
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local l = view.lines[row - 1]
  if not l or not l.id then return nil end
  return l, M.state[l.client_id].items[l.id], M.state[l.client_id].results[l.id]
end

local function notify(msg, level)
  require('greenlight.commands').notify(msg, level)
end

-- <CR>: the test's definition, or the failing assertion of a failed test, in the window the
-- summary was opened from.
function M.jump()
  local view = M.view
  local entry = view and view.lines and view.lines[vim.api.nvim_win_get_cursor(0)[1] - 1]
  if entry and entry.coverage then
    local win = view.from_win
    if not win or not vim.api.nvim_win_is_valid(win) or win == view.win then vim.cmd('wincmd p') else vim.api.nvim_set_current_win(win) end
    local bufnr = vim.uri_to_bufnr(entry.coverage.uri)
    vim.bo[bufnr].buflisted = true
    vim.api.nvim_win_set_buf(0, bufnr)
    pcall(vim.api.nvim_win_set_cursor, 0, { entry.coverage.first_not_run or 1, 0 })
    return
  end
  local l, item, r = M.current()
  if not l then return end
  if item.kind == 'folder' or (item.kind == 'file' and item.resolved == false) then
    local client = compat.get_client(l.client_id)
    if client and item.resolved == false then
      if item.kind == 'folder' then M.list_workspace(client, { folder = item.uri }) else M.list(client, item.uri) end
    end
    if item.kind == 'folder' or item.resolved == false then return end
  end
  local target = item
  if r and (r.status == 'failed' or r.status == 'errored') and type(r.location) == 'table' then target = r.location end
  if type(target.uri) ~= 'string' then return notify('no location for ' .. l.id) end
  local win = M.view.from_win
  if not win or not vim.api.nvim_win_is_valid(win) or win == M.view.win then
    vim.cmd('wincmd p')
  else
    vim.api.nvim_set_current_win(win)
  end
  local bufnr = vim.uri_to_bufnr(target.uri)
  vim.bo[bufnr].buflisted = true
  vim.api.nvim_win_set_buf(0, bufnr)
  local start = type(target.range) == 'table' and target.range.start or { line = 0 }
  pcall(vim.api.nvim_win_set_cursor, 0, { start.line + 1, 0 })
end

-- The uri of the file an item belongs to.
local function file_uri(st, item)
  local id = item.id
  while item and item.kind ~= 'file' do
    item = item.parent and st.items[item.parent] or nil
  end
  if item and item.uri then return item.uri end
  local fallback = st.items[id]
  return fallback and fallback.uri
end

-- r: greenlight.runTests for the node under the cursor (a file: all its tests; a class,
-- describe block or test: that one, by id).
function M.run()
  local l, item = M.current()
  if not l then return end
  local client = compat.get_client(l.client_id)
  if not client then return notify('the server of these tests is not running', vim.log.levels.WARN) end
  local st = M.state[l.client_id]
  if item.kind == 'folder' then
    -- A folder: every test file listed under it, one run each.
    local files = {}
    for _, id in ipairs(st.order) do
      local it = st.items[id]
      local p = it and it.kind == 'file' and it.uri and fname(it.uri)
      if p and under(p, fname(item.uri) or '\0') then table.insert(files, it.uri) end
    end
    if #files == 0 then return notify('no test files listed under ' .. (item.label or l.id)) end
    for _, uri in ipairs(files) do
      require('greenlight.commands').execute(client, 'greenlight.runTests', { { uri = uri } }, vim.uri_to_bufnr(uri))
    end
    return
  end
  local uri = file_uri(st, item)
  if not uri then return notify('no file for ' .. l.id) end
  local args = { uri = uri }
  if item.kind ~= 'file' then args.tests = { item.id } end
  local bufnr = vim.uri_to_bufnr(uri)
  return require('greenlight.commands').execute(client, 'greenlight.runTests', { args }, bufnr)
end

-- The raw greenlight diagnostic a failed result left at its location, or nil.
local function diagnostic_for(client_id, r)
  if type(r) ~= 'table' or type(r.location) ~= 'table' then return nil end
  local diagnostics = require('greenlight.diagnostics')
  local list = (diagnostics.published[client_id] or {})[r.location.uri] or {}
  local line = r.location.range and r.location.range.start.line
  for _, d in ipairs(list) do
    if d.range and d.range.start.line == line and (d.code == nil or diagnostics.fixable[d.code]) then return d end
  end
  return nil
end

-- g: greenlight.fix on the failing test's diagnostic (the function it exercises is written or
-- rewritten until the test passes).
function M.generate_or_fix()
  local l, item, r = M.current()
  if not l then return end
  local client = compat.get_client(l.client_id)
  if not client then return notify('the server of these tests is not running', vim.log.levels.WARN) end
  if not r or (r.status ~= 'failed' and r.status ~= 'errored') then
    return notify(string.format('%s does not fail: nothing to generate or fix (run it with r first)', item.label or l.id))
  end
  local d = diagnostic_for(l.client_id, r)
  if not d then return notify('no greenlight diagnostic for ' .. (item.label or l.id) .. ': run it again with r') end
  local bufnr = vim.uri_to_bufnr(r.location.uri)
  return require('greenlight.commands').execute(client, 'greenlight.fix',
    { { uri = r.location.uri, position = d.range.start, diagnostic = d } }, bufnr)
end

-- Lists the workspace's tests and those near every buffer the greenlight clients serve; calls
-- done() once all answered.
function M.refresh(done)
  local pending = 0
  local function finished()
    pending = pending - 1
    if pending == 0 and done then done() end
  end
  for _, client in ipairs(require('greenlight').clients()) do
    if client.initialized then
      pending = pending + 1
      M.list_workspace(client, {}, finished)
    end
    for _, bufnr in ipairs(compat.attached_buffers(client)) do
      if vim.api.nvim_buf_get_name(bufnr) ~= '' then
        pending = pending + 1
        M.list(client, vim.uri_from_bufnr(bufnr), finished)
      end
    end
  end
  if pending == 0 and done then done() end
end

-- :GreenlightTests: opens (or focuses) the summary window on the right and fills it. With no
-- server running yet (no file opened), starts the one of the current directory's workspace; it
-- lists the workspace's tests as it starts.
function M.open()
  local from = vim.api.nvim_get_current_win()
  if #require('greenlight').clients() == 0 then require('greenlight').start_root(vim.fn.getcwd()) end
  if M.view and vim.api.nvim_win_is_valid(M.view.win or -1) then
    vim.api.nvim_set_current_win(M.view.win)
  else
    local buf = M.view and vim.api.nvim_buf_is_valid(M.view.buf) and M.view.buf or vim.api.nvim_create_buf(false, true)
    vim.cmd('botright vsplit')
    local win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_width(win, math.max(40, math.floor(vim.o.columns / 3)))
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.bo[buf].filetype = 'greenlight-tests'
    vim.wo[win].number = false
    vim.wo[win].relativenumber = false
    vim.wo[win].wrap = false
    vim.wo[win].cursorline = true
    pcall(vim.api.nvim_buf_set_name, buf, 'greenlight://tests')
    local function map(lhs, fn, desc) vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true, silent = true, desc = desc }) end
    map('<CR>', M.jump, 'greenlight: jump to the test')
    map('r', M.run, 'greenlight: run the test under the cursor')
    map('g', M.generate_or_fix, 'greenlight: generate or fix the code the failing test exercises')
    map('R', function() M.refresh() end, 'greenlight: list the tests again')
    map('q', function() vim.api.nvim_win_close(0, false) end, 'greenlight: close the test summary')
    M.view = { buf = buf, win = win }
  end
  M.view.from_win = from ~= M.view.win and from or M.view.from_win
  M.render()
  M.refresh()
end

function M.forget(client_id)
  M.state[client_id] = nil
  schedule_render()
end

return M
