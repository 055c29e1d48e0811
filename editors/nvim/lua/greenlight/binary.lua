-- Finds the greenlight binary: vim.g.greenlight.server.path when set (~ and $VARS expanded, a
-- bare name looked up on $PATH, a relative path taken from the current directory), else
-- `greenlight` on $PATH. A configured path that is not executable is an error rather than a
-- silent fallback to another binary.
local M = {}

-- Returns path, source ('server.path' | 'PATH') or nil, message.
function M.resolve(cfg)
  local configured = cfg.server and cfg.server.path
  if configured ~= nil then
    local expanded = vim.fn.expand(configured)
    if expanded == '' then expanded = configured end
    if not expanded:find('/', 1, true) then
      local found = vim.fn.exepath(expanded)
      if found ~= '' then return found, 'server.path' end
      return nil, string.format('vim.g.greenlight.server.path "%s": not found on $PATH', configured)
    end
    local full = vim.fn.fnamemodify(expanded, ':p')
    if vim.fn.executable(full) == 1 and vim.fn.isdirectory(full) == 0 then return full, 'server.path' end
    return nil, string.format('vim.g.greenlight.server.path "%s": %s is not an executable file', configured, full)
  end
  local found = vim.fn.exepath('greenlight')
  if found ~= '' then return found, 'PATH' end
  return nil, 'greenlight binary not found on $PATH; set vim.g.greenlight = { server = { path = "/path/to/greenlight" } }'
end

-- Runs `argv` (in `cwd` when given) and returns its exit code and output lines (stdout then
-- stderr), or nil and why. Bounded by `timeout_ms` so a hung binary cannot freeze :checkhealth.
function M.run(argv, timeout_ms, cwd)
  timeout_ms = timeout_ms or 3000
  local out, err = {}, {}
  local done = { stdout = false, stderr = false }
  local ok, job = pcall(vim.fn.jobstart, argv, {
    cwd = cwd,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data; done.stdout = true end,
    on_stderr = function(_, data) err = data; done.stderr = true end,
  })
  if not ok or job <= 0 then return nil, 'cannot run ' .. argv[1] end
  local status = vim.fn.jobwait({ job }, timeout_ms)[1]
  if status == -1 then
    vim.fn.jobstop(job)
    return nil, string.format('%s did not answer within %d ms', table.concat(argv, ' '), timeout_ms)
  end
  -- The buffered callbacks run after the job exits; give them a moment.
  vim.wait(500, function() return done.stdout and done.stderr end, 10)
  local lines = {}
  for _, l in ipairs(out) do table.insert(lines, l) end
  for _, l in ipairs(err) do table.insert(lines, l) end
  while #lines > 0 and lines[#lines] == '' do table.remove(lines) end
  return status, lines
end

-- Runs `argv` (a version query) and returns its first output line, or nil and why.
function M.first_line(argv, timeout_ms)
  local status, lines = M.run(argv, timeout_ms)
  if not status then return nil, lines end
  local first = nil
  for _, line in ipairs(lines) do
    if line ~= '' then first = line break end
  end
  if status ~= 0 then
    return nil, string.format('%s exited with %d%s', table.concat(argv, ' '), status, first and (': ' .. first) or '')
  end
  return first or '', nil
end

return M
