-- A tiny test harness for headless Neovim: named steps, assertions with messages, a watchdog,
-- exit code 0 (pass), 1 (fail) or 77 (skip, CTest SKIP_RETURN_CODE).
local H = {}

H.notifications = {}
local original_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(H.notifications, { msg = msg, level = level })
  io.stderr:write(string.format('[notify %s] %s\n', tostring(level), msg))
  return original_notify(msg, level, opts)
end

local current_step = 'startup'
H.started = vim.loop.hrtime() / 1e9
local function finish(code, message)
  if message then io.stderr:write(message .. '\n') end
  io.stderr:flush()
  io.stdout:flush()
  vim.cmd('cquit ' .. code)
end

function H.step(name)
  current_step = name
  io.stdout:write(string.format('step (%.1f s): %s\n', vim.loop.hrtime() / 1e9 - H.started, name))
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

-- Waits up to `ms` for `cond()`; fails with `what` on timeout.
function H.wait(ms, cond, what)
  local ok = vim.wait(ms, cond, 20)
  if not ok then H.fail(string.format('timed out after %d ms waiting for %s', ms, what)) end
end

function H.env(name)
  local value = os.getenv(name)
  if value == nil or value == '' then H.fail(name .. ' is not set') end
  return value
end

-- A fresh directory under the test's scratch root.
function H.tempdir(name)
  local root = H.env('GREENLIGHT_TEST_SCRATCH')
  local dir = root .. '/' .. name
  vim.fn.delete(dir, 'rf')
  vim.fn.mkdir(dir, 'p')
  return vim.loop.fs_realpath(dir)
end

function H.write(path, lines)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  vim.fn.writefile(lines, path)
end

-- Runs `fn` and exits Neovim with the result. A watchdog ends a hung test.
function H.run(seconds, fn)
  local watchdog = vim.loop.new_timer()
  watchdog:start(seconds * 1000, 0, function()
    io.stderr:write(string.format('FAIL: watchdog: test did not finish within %d s (step: %s)\n', seconds, current_step))
    io.stderr:flush()
    os.exit(1)
  end)
  local ok, err = xpcall(fn, function(e)
    if type(e) == 'table' then return e end
    return { greenlight_fail = tostring(e) .. '\n' .. debug.traceback() }
  end)
  watchdog:stop()
  if ok then
    finish(0, 'PASS')
  elseif err.greenlight_skip then
    finish(77, 'SKIP: ' .. err.greenlight_skip)
  else
    finish(1, string.format('FAIL in step "%s": %s', current_step, err.greenlight_fail))
  end
end

-- Checks that `bin lsp` answers initialize before the real test starts, so a server that is
-- not built yet is a clear SKIP and a broken one a clear FAIL (with its stderr), instead of a
-- client that silently never attaches.
function H.probe_server(bin, timeout_ms)
  timeout_ms = timeout_ms or 10000
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
    vim.wait(3000, function() return exited end, 20)
    if not exited then vim.fn.jobstop(job) end
    return
  end
  if not exited then vim.fn.jobstop(job) end
  if exited and stderr:find('not built yet', 1, true) then
    H.skip(string.format('%s lsp is still the placeholder (exit %s: %s); the LSP server is not built yet',
      bin, tostring(code), vim.trim(stderr)))
  end
  if not answered then
    H.fail(string.format('%s lsp did not answer initialize within %d ms; stderr: %s', bin, timeout_ms, stderr))
  end
  H.fail(string.format('%s lsp exited with %s without answering initialize; stderr: %s', bin, tostring(code), stderr))
end

return H
