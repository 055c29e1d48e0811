-- Which lines the tests ran (issue 35): a finished greenlight/testResults carries `coverage`, the
-- covered files' executable lines with their hit counts ({uri, lines = {{line, count}, ...}},
-- 1-based, 0 = no test ran it). Each line no test ran gets a `GreenlightNotRun` sign (group
-- `greenlight_coverage`) in the loaded buffers of those files, and the summary window says
-- "· 9/12 lines run" per file, or the server's run.coverageNote when it dropped a run's coverage.
--
-- A document's next run replaces what its last run placed (a finished run without coverage, or a
-- cancelled one, clears it: the code may have changed since). :GreenlightCoverage [on|off]
-- toggles the signs; vim.g.greenlight.coverage = false starts with them hidden. Everything here
-- runs on Neovim's main loop.
local M = {}

M.group = 'greenlight_coverage'
M.sign = 'GreenlightNotRun'
-- Below diagnostics' signs (10): a failing line shows its failure.
M.priority = 8

-- files[client_id][uri] = { lines = { {line, count}, ... } sorted, covered = n, total = n }
M.files = {}
-- by_run[client_id][document uri] = { uri, ... }: the files a document's last run covered.
local by_run = {}
-- notes[client_id][document uri] = why the document's last finished run has no coverage, when
-- the server dropped it to let the run finish (run.coverageNote).
local notes = {}
-- nil: follow vim.g.greenlight.coverage; true/false: :GreenlightCoverage said so.
local shown_override = nil

-- Defined at the first placement, unless the user defined it already (their look wins).
local function define()
  if #vim.fn.sign_getdefined(M.sign) > 0 then return end
  local hl = vim.fn.hlexists('DiagnosticInfo') == 1 and 'DiagnosticInfo' or 'Comment'
  vim.fn.sign_define(M.sign, { text = '┃', texthl = hl })
end

function M.shown()
  if shown_override ~= nil then return shown_override end
  return require('greenlight.config').get().coverage ~= false
end

-- The loaded buffer of `uri`, or nil (a file nobody opened gets no buffer from us).
local function loaded_buffer(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  if not ok then return nil end
  local real = vim.loop.fs_realpath(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if name ~= '' and vim.api.nvim_buf_is_loaded(b) and (name == path or (real and vim.loop.fs_realpath(name) == real)) then
      return b
    end
  end
  return nil
end

local function unplace(uri)
  local bufnr = loaded_buffer(uri)
  if bufnr then vim.fn.sign_unplace(M.group, { buffer = bufnr }) end
end

-- Places the not-run signs of `uri` in its buffer (when loaded and shown).
local function place(client_id, uri)
  local f = (M.files[client_id] or {})[uri]
  local bufnr = loaded_buffer(uri)
  if not bufnr then return end
  vim.fn.sign_unplace(M.group, { buffer = bufnr })
  if not f or not M.shown() then return end
  define()
  local count = vim.api.nvim_buf_line_count(bufnr)
  local list = {}
  for _, l in ipairs(f.lines) do
    if l[2] == 0 and l[1] <= count then
      table.insert(list, { id = 0, group = M.group, name = M.sign, buffer = bufnr, lnum = l[1], priority = M.priority })
    end
  end
  if #list > 0 then vim.fn.sign_placelist(list) end
end

-- A malformed entry is a server bug, not the user's: it goes to the LSP log (:LspLog), and what
-- is well-formed is still shown.
local function problem(text)
  local ok, log = pcall(require, 'vim.lsp.log')
  if ok then log.warn('greenlight: ' .. text) end
end

-- One `coverage` entry checked: {uri, lines = sorted {line, count}, covered, total}, or nil.
local function checked(entry, index)
  if type(entry) ~= 'table' or type(entry.uri) ~= 'string' or entry.uri == '' or type(entry.lines) ~= 'table' then
    problem(string.format('coverage[%d]: expected {uri, lines}, got %s', index, vim.inspect(entry)))
    return nil
  end
  local counts = {}
  for _, pair in ipairs(entry.lines) do
    local line, count = type(pair) == 'table' and pair[1], type(pair) == 'table' and pair[2]
    if type(line) == 'number' and line >= 1 and math.floor(line) == line and type(count) == 'number' and count >= 0
      and math.floor(count) == count then
      counts[line] = (counts[line] or 0) + count
    else
      problem(string.format('coverage[%d] (%s): ignored %s; expected {line >= 1, count >= 0}', index, entry.uri, vim.inspect(pair)))
    end
  end
  local lines, covered = {}, 0
  for line, count in pairs(counts) do
    table.insert(lines, { line, count })
    if count > 0 then covered = covered + 1 end
  end
  table.sort(lines, function(a, b) return a[1] < b[1] end)
  return { uri = entry.uri, lines = lines, covered = covered, total = #lines }
end

-- greenlight/testResults (called by tests.results_handler for every notification).
function M.on_results(client_id, params)
  if type(params) ~= 'table' or type(params.run) ~= 'table' or type(params.uri) ~= 'string' then return end
  local state = params.run.state
  if state ~= 'finished' and state ~= 'cancelled' then return end
  M.files[client_id] = M.files[client_id] or {}
  by_run[client_id] = by_run[client_id] or {}
  local files = M.files[client_id]
  -- What this document's last run placed goes first.
  for _, uri in ipairs(by_run[client_id][params.uri] or {}) do
    files[uri] = nil
    unplace(uri)
  end
  local covered = {}
  if state == 'finished' and type(params.coverage) == 'table' then
    for i, entry in ipairs(params.coverage) do
      local f = checked(entry, i - 1)
      if f then
        files[f.uri] = f
        table.insert(covered, f.uri)
        place(client_id, f.uri)
      end
    end
  end
  by_run[client_id][params.uri] = covered
  notes[client_id] = notes[client_id] or {}
  local note = params.run.coverageNote
  notes[client_id][params.uri] = state == 'finished' and type(note) == 'string' and note ~= '' and note or nil
end

-- `uri` as the summary names it: its path, relative to `root` when under it.
local function summary_path(uri, root)
  local ok, path = pcall(vim.uri_to_fname, uri)
  path = ok and path or uri
  if root and path:sub(1, #root + 1) == root .. '/' then path = path:sub(#root + 2) end
  return path
end

-- The summary's coverage lines: { { uri, text = 'm.py · 9/12 lines run', first_not_run = line } },
-- and { uri, text = 'm.py · coverage not measured: …' } for a run whose coverage the server dropped,
-- for `client_id`, sorted by path; paths relative to `root` when under it.
function M.summary(client_id, root)
  local out = {}
  for uri, f in pairs(M.files[client_id] or {}) do
    local path = summary_path(uri, root)
    local first
    for _, l in ipairs(f.lines) do
      if l[2] == 0 then
        first = l[1]
        break
      end
    end
    table.insert(out, { uri = uri, path = path, first_not_run = first,
      text = string.format('%s · %d/%d lines run', path, f.covered, f.total) })
  end
  for uri, note in pairs(notes[client_id] or {}) do
    local path = summary_path(uri, root)
    table.insert(out, { uri = uri, path = path, text = string.format('%s · %s', path, note) })
  end
  table.sort(out, function(a, b) return a.path < b.path end)
  return out
end

-- Places the signs of every file known for the buffer just read (it was not loaded when its
-- coverage came).
function M.buffer_loaded(bufnr)
  if not next(M.files) then return end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then return end
  local uri = vim.uri_from_fname(name)
  for client_id, files in pairs(M.files) do
    if files[uri] then place(client_id, uri) end
  end
end

local function place_all()
  for client_id, files in pairs(M.files) do
    for uri in pairs(files) do place(client_id, uri) end
  end
end

-- :GreenlightCoverage [on|off]: show or hide the signs (no argument: toggle). Returns the new state,
-- nil for a bad argument (reported; nothing changes).
function M.toggle(arg)
  if arg == nil or arg == '' then
    shown_override = not M.shown()
  elseif arg == 'on' or arg == 'off' then
    shown_override = arg == 'on'
  else
    vim.notify(string.format('greenlight: :GreenlightCoverage: bad argument "%s" (expected on or off)', arg), vim.log.levels.WARN)
    return nil
  end
  place_all()
  return shown_override
end

function M.forget(client_id)
  for uri in pairs(M.files[client_id] or {}) do unplace(uri) end
  M.files[client_id] = nil
  by_run[client_id] = nil
end

return M
