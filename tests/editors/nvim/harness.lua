-- A tiny test harness for headless Neovim: named steps, assertions with messages, a watchdog,
-- exit code 0 (pass), 1 (fail) or 77 (skip, CTest SKIP_RETURN_CODE).
local H = {}
local uv = vim.uv or vim.loop
H.uv = uv

H.notifications = {}
local original_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(H.notifications, { msg = msg, level = level })
  io.stderr:write(string.format('[notify %s] %s\n', tostring(level), msg))
  return original_notify(msg, level, opts)
end

-- Deprecated Neovim API used by the plugin (or a test) fails the test: what still runs on
-- 0.10 goes away later. vim.deprecate is how Neovim announces it.
H.deprecations = {}
if vim.deprecate then
  local original_deprecate = vim.deprecate
  vim.deprecate = function(name, alternative, version, plugin, backtrace)
    table.insert(H.deprecations, string.format('%s (use %s; removed in %s)\n%s', tostring(name), tostring(alternative),
      tostring(version), debug.traceback('', 2)))
    return original_deprecate(name, alternative, version, plugin, backtrace)
  end
end

-- Bounds scale like the C++ tests' (tests/common/TestTime.h): GL_TEST_TIME_SCALE is the build's
-- factor (4 under sanitizers, where the real server is the ASan build and :checkhealth's
-- `greenlight doctor` takes 6 s instead of 2), set by tests/editors/CMakeLists.txt;
-- GREENLIGHT_TEST_TIME_SCALE is a further factor for an unusually slow machine. A bound only
-- ends a wait for something that did not come, so it can be generous.
H.time_scale = tonumber(os.getenv('GL_TEST_TIME_SCALE') or '') or 1
if not (H.time_scale > 0) then H.time_scale = 1 end
do
  local extra = tonumber(os.getenv('GREENLIGHT_TEST_TIME_SCALE') or '')
  if extra and extra >= 1 then H.time_scale = H.time_scale * extra end
end

-- `ms` milliseconds, scaled.
function H.scaled(ms)
  return math.floor(ms * H.time_scale)
end

local current_step = 'startup'
H.started = uv.hrtime() / 1e9
local function finish(code, message)
  if message then io.stderr:write(message .. '\n') end
  io.stderr:flush()
  io.stdout:flush()
  vim.cmd('cquit ' .. code)
end

function H.step(name)
  current_step = name
  io.stdout:write(string.format('step (%.1f s): %s\n', uv.hrtime() / 1e9 - H.started, name))
end

function H.fail(message)
  error({ greenlight_fail = message }, 0)
end

function H.skip(message)
  error({ greenlight_skip = message }, 0)
end

function H.check(cond, message)
  if not cond then H.fail(message) end
  return cond
end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    H.fail(string.format('%s: expected %s, got %s', what, vim.inspect(expected), vim.inspect(actual)))
  end
end

function H.contains(haystack, needle, what)
  if type(haystack) ~= 'string' or not haystack:find(needle, 1, true) then
    H.fail(string.format('%s: %s does not contain %s', what, vim.inspect(haystack), vim.inspect(needle)))
  end
end

-- Waits up to `ms` (scaled) for `cond()`; fails with `what` on timeout.
function H.wait(ms, cond, what)
  ms = H.scaled(ms)
  local ok = vim.wait(ms, cond, 20)
  if not ok then H.fail(string.format('timed out after %d ms waiting for %s', ms, what)) end
end

function H.env(name)
  local value = os.getenv(name)
  if value == nil or value == '' then H.fail(name .. ' is not set') end
  return value
end

-- Lets the scripted model's reply held by a "hold_until" rule go on (the *_real lanes:
-- run-nvim-test.sh names the gates' folder; the fake server needs none, so this is a no-op
-- there). A test calls it once it has done what must happen while the reply is open.
function H.release_model(name)
  local dir = os.getenv('GREENLIGHT_TEST_MODEL_GATES')
  if dir == nil or dir == '' then return end
  vim.fn.writefile({ 'go' }, dir .. '/' .. name)
end

-- A fresh directory under the test's scratch root.
function H.tempdir(name)
  local root = H.env('GREENLIGHT_TEST_SCRATCH')
  local dir = root .. '/' .. name
  vim.fn.delete(dir, 'rf')
  vim.fn.mkdir(dir, 'p')
  return uv.fs_realpath(dir)
end

function H.write(path, lines)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  vim.fn.writefile(lines, path)
end

-- Runs `fn` and exits Neovim with the result. A watchdog ends a hung test after `seconds`
-- (scaled; below the wrapper's limit, run-nvim-test.sh, which is scaled the same way).
function H.run(seconds, fn)
  local ms = H.scaled(seconds * 1000)
  seconds = ms / 1000
  local watchdog = uv.new_timer()
  watchdog:start(ms, 0, function()
    io.stderr:write(string.format('FAIL: watchdog: test did not finish within %g s (step: %s)\n', seconds, current_step))
    io.stderr:flush()
    os.exit(1)
  end)
  local ok, err = xpcall(fn, function(e)
    if type(e) == 'table' then return e end
    return { greenlight_fail = tostring(e) .. '\n' .. debug.traceback() }
  end)
  watchdog:stop()
  if ok and #H.deprecations > 0 then
    ok, err = false, { greenlight_fail = 'deprecated Neovim API used:\n' .. table.concat(H.deprecations, '\n') }
  end
  if ok then
    finish(0, 'PASS')
  elseif err.greenlight_skip then
    finish(77, 'SKIP: ' .. err.greenlight_skip)
  else
    finish(1, string.format('FAIL in step "%s": %s', current_step, err.greenlight_fail))
  end
end

-- Checks that `bin lsp` answers initialize before the real test starts, so a broken server is
-- a clear FAIL (with its stderr), instead of a client that silently never attaches.
function H.probe_server(bin, timeout_ms)
  timeout_ms = H.scaled(timeout_ms or 10000)
  local stdout, stderr, exited, code = '', '', false, nil
  local job = vim.fn.jobstart({ bin, 'lsp' }, {
    on_stdout = function(_, data) stdout = stdout .. table.concat(data, '\n') end,
    on_stderr = function(_, data) stderr = stderr .. table.concat(data, '\n') end,
    on_exit = function(_, c) exited, code = true, c end,
  })
  if job <= 0 then H.fail('cannot start ' .. bin .. ' lsp') end
  local body = vim.json.encode({ jsonrpc = '2.0', id = 1, method = 'initialize',
    params = { processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict() } })
  -- pcall: a server that already exited has closed its stdin; that is reported below.
  pcall(vim.fn.chansend, job, string.format('Content-Length: %d\r\n\r\n%s', #body, body))
  local answered = vim.wait(timeout_ms, function()
    return exited or stdout:find('"id"%s*:%s*1') ~= nil
  end, 20)
  local got = stdout:find('"id"%s*:%s*1') ~= nil
  if got then
    local shutdown = vim.json.encode({ jsonrpc = '2.0', id = 2, method = 'shutdown' })
    local exit = vim.json.encode({ jsonrpc = '2.0', method = 'exit' })
    pcall(vim.fn.chansend, job, string.format('Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s', #shutdown, shutdown, #exit, exit))
    vim.wait(H.scaled(3000), function() return exited end, 20)
    if not exited then vim.fn.jobstop(job) end
    return
  end
  if not exited then vim.fn.jobstop(job) end
  if not answered then
    H.fail(string.format('%s lsp did not answer initialize within %d ms; stderr: %s', bin, timeout_ms, stderr))
  end
  H.fail(string.format('%s lsp exited with %s without answering initialize; stderr: %s', bin, tostring(code), stderr))
end

-- --- LSP helpers shared by the scenarios (fake or real server) ---------------------------

-- Opens `path`, waits for an initialized greenlight client; returns bufnr, client.
function H.open(path, ms)
  local greenlight = require('greenlight')
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  H.wait(ms or 10000, function()
    local c = greenlight.client(bufnr)
    return c ~= nil and c.initialized == true
  end, 'an initialized greenlight client for ' .. path)
  return bufnr, greenlight.client(bufnr)
end

-- Whether `client` talks to the scripted fake server (tests/editors/fake), whose log shows
-- what the plugin sent; the real server is checked by outcomes only.
function H.is_fake(client)
  local info = require('greenlight').server_info[client.id]
  return info ~= nil and info.name == 'greenlight-fake'
end

-- The fake's log ($GREENLIGHT_FAKE_LOG): messages it received ('in') or sent ('out').
-- The fake appends while we read: a read can end inside a line the fake is still writing
-- (a write is not atomic for a reader, e.g. across a page boundary), so only lines that end
-- in a newline are complete. readfile()'s 'b' mode keeps that visible: its last item is ''
-- after a final newline, else the unfinished line; either way it is dropped.
function H.fake_messages(log_path, dir)
  local out = {}
  if not log_path or vim.fn.filereadable(log_path) == 0 then return out end
  local lines = vim.fn.readfile(log_path, 'b')
  for i = 1, #lines - 1 do
    local entry = vim.json.decode(lines[i])
    if entry.dir == (dir or 'in') then table.insert(out, entry.msg) end
  end
  return out
end

-- Messages the fake received with `method` (and, for executeCommand, `command`).
function H.fake_sent(log_path, method, command)
  return vim.tbl_filter(function(m)
    return m.method == method and (command == nil or (m.params and m.params.command == command))
  end, H.fake_messages(log_path, 'in'))
end

-- Waits for the response to the next `command` sent after `since` responses were recorded
-- (require('greenlight.commands').results); returns { err, result }.
function H.wait_result(command, since, ms)
  local commands = require('greenlight.commands')
  local found
  local seen = math.min(H.notes_mark or 0, #H.notifications)
  H.wait(ms or 20000, function()
    -- The plugin saying the command was never sent ends the wait at once.
    for i = seen + 1, #H.notifications do
      local msg = H.notifications[i].msg
      for _, never in ipairs({ 'nothing to generate here', 'offers no fix', 'no greenlight failure on this line',
        'no greenlight server for this buffer', 'could not send' }) do
        if msg:find(never, 1, true) then H.fail(command .. ' was not sent: ' .. msg) end
      end
    end
    for i = since + 1, #commands.results do
      if commands.results[i].command == command then
        found = commands.results[i]
        return true
      end
    end
    return false
  end, 'the response to ' .. command)
  return found
end

-- How many responses are recorded now (pass to wait_result); notifications from here on are
-- watched by wait_result too.
function H.results_mark()
  H.notes_mark = #H.notifications
  return #require('greenlight.commands').results
end

-- Keys for a prompt that reads typeahead (inputlist(), the 0.7 modal preview): queued now,
-- read when the prompt opens. vim.wait() does not consume typeahead, so nothing else will.
function H.typeahead(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 't', false)
end

-- Answers the diff preview: on 0.10 (asynchronous float) waits for it and types `key` in it;
-- on 0.7 (modal) the key must be queued before the preview opens: call with `before = true`
-- before triggering, then again with `before = false` after (a no-op there).
function H.answer_preview(key, before)
  local preview = require('greenlight.preview')
  local modal = vim.fn.has('nvim-0.10') == 0
  if modal then
    if before then H.typeahead(key) end
    return
  end
  if before then return end
  H.wait(20000, function() return preview.current ~= nil end, 'the diff preview float')
  H.eq(vim.api.nvim_get_current_win(), preview.current.win, 'the preview float has the focus')
  vim.api.nvim_feedkeys(key, 'x', false)
end

-- Greenlight diagnostics in `bufnr` (vim.diagnostic).
function H.greenlight_diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'greenlight' then table.insert(out, d) end
  end
  return out
end

function H.lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

-- The 1-based line number of the first line of `bufnr` equal to `text`, or fails.
function H.line_of(bufnr, text)
  for i, l in ipairs(H.lines(bufnr)) do
    if l == text then return i end
  end
  H.fail(string.format('no line %s in:\n%s', vim.inspect(text), table.concat(H.lines(bufnr), '\n')))
end

-- Notifications whose message contains `needle`.
function H.notified(needle)
  return vim.tbl_filter(function(n) return n.msg:find(needle, 1, true) ~= nil end, H.notifications)
end

return H
