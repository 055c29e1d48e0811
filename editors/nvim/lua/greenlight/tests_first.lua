-- Tests first (issue 36): when greenlight.generate answers `tests_proposed` (the target has no
-- nearby tests and no examples in its comment), the proposed test file is shown in a preview
-- window for the user to accept, edit or cancel. Nothing is written before acceptance: the
-- preview is a scratch buffer (buftype=acwrite, so :w writes nowhere but accepts), and accepting
-- sends greenlight.generate again with `tests = { uri, text }`, text being the buffer's WHOLE
-- text at that moment; the server then lands the test file and the code as one workspace edit.
--
--   a   accept the tests and generate          e   edit: the buffer becomes modifiable and the
--   q/c cancel (also :q!, closing the window)      single-key maps go; :w (or
--   <CR> the same three choices (vim.ui.select)    :GreenlightTestsAccept) accepts, :q! cancels
--   d   an existing test file: its current text beside the proposal, in diff mode
--
-- Flagged tests (they pass on the stub, so they assert nothing about the target) get a sign and
-- virtual text on their line; a proposal that does not run shows its error on line 1. Both are
-- also in the notification shown when the preview opens.
local M = {}

-- The preview on screen ({ buf, win, proposal, decide = function(action) }) or nil; the last
-- decision ({ action = 'accept'|'cancel', text, edited }), for tests and curious users.
M.current = nil
M.last = nil

local ns = vim.api.nvim_create_namespace('greenlight_tests_first')
local kSign = 'GreenlightTestFlagged'
local kChoices = { 'Accept tests and generate', 'Edit', 'Cancel' }

local function notify(msg, level)
  vim.notify('greenlight: ' .. msg, level or vim.log.levels.INFO)
end

-- The proposal of a `tests_proposed` result, or nil and why not.
function M.parse(result)
  if type(result) ~= 'table' or result.status ~= 'tests_proposed' then return nil, 'not a proposal' end
  local t = result.tests
  if type(t) ~= 'table' then return nil, 'the proposal has no "tests" object' end
  if type(t.uri) ~= 'string' or t.uri == '' then return nil, 'tests.uri: expected a non-empty string' end
  if type(t.text) ~= 'string' then return nil, 'tests.text: expected a string' end
  local flagged = {}
  for _, f in ipairs(type(t.flagged) == 'table' and t.flagged or {}) do
    if type(f) == 'table' and type(f.name) == 'string' then
      table.insert(flagged, { name = f.name, line = type(f.line) == 'number' and f.line or nil,
        message = type(f.message) == 'string' and f.message or 'passes on the stub' })
    end
  end
  local names = type(t.names) == 'table' and t.names or {}
  return {
    uri = t.uri,
    file = type(t.file) == 'string' and t.file or vim.uri_to_fname(t.uri),
    exists = t.exists == true,
    text = t.text,
    original = type(t.original) == 'string' and t.original or nil,
    count = type(t.count) == 'number' and t.count or #names,
    flagged = flagged,
    error = type(t.error) == 'string' and t.error ~= '' and t.error or nil,
    target = type(result.target) == 'table' and type(result.target.name) == 'string' and result.target.name or nil,
  }
end

local function plural(n, word)
  return string.format('%d %s%s', n, word, n == 1 and '' or 's')
end

-- The notification shown with the preview.
function M.message(p)
  local where = vim.fn.fnamemodify(p.file, ':~:.') .. (p.exists and '' or ' (new file)')
  local parts = { string.format('%s%s proposed for %s; nothing is written until you accept: a accept, e edit, q cancel',
    p.target and (p.target .. ': ') or '', plural(p.count, 'test'), where) }
  if #p.flagged > 0 then
    local list = {}
    for _, f in ipairs(p.flagged) do
      table.insert(list, f.name .. (f.line and string.format(' (line %d)', f.line) or '') .. ': ' .. f.message)
    end
    table.insert(parts, string.format('%s on the stub: %s', #p.flagged == 1 and '1 test passes' or (#p.flagged .. ' tests pass'),
      table.concat(list, '; ')))
  end
  if p.error then table.insert(parts, 'the proposal does not run: ' .. p.error) end
  return table.concat(parts, '. '), (#p.flagged > 0 or p.error) and vim.log.levels.WARN or vim.log.levels.INFO
end

local function text_lines(text)
  local lines = vim.split(text, '\n', { plain = true })
  if #lines > 1 and lines[#lines] == '' then table.remove(lines) end
  return lines
end

local function statusline(editing, original)
  if editing then return ' greenlight: proposed tests (editing)  :w accept and generate  :q! cancel' end
  return ' greenlight: proposed tests  [a]ccept and generate  [e]dit  [q]/[c] cancel  <CR> choose'
    .. (original and '  [d]iff with the current file' or '')
end

local function mark(buf, p)
  if vim.fn.sign_getdefined(kSign)[1] == nil then
    vim.fn.sign_define(kSign, { text = '!', texthl = 'DiagnosticWarn' })
  end
  local count = vim.api.nvim_buf_line_count(buf)
  for _, f in ipairs(p.flagged) do
    if f.line and f.line >= 1 and f.line <= count then
      vim.fn.sign_place(0, 'greenlight_tests_first', kSign, buf, { lnum = f.line })
      vim.api.nvim_buf_set_extmark(buf, ns, f.line - 1, 0,
        { virt_text = { { '⚠ ' .. f.message, 'DiagnosticWarn' } }, virt_text_pos = 'eol' })
    end
  end
  if p.error then
    vim.api.nvim_buf_set_extmark(buf, ns, 0, 0,
      { virt_text = { { '✗ the proposal does not run: ' .. p.error, 'DiagnosticError' } }, virt_text_pos = 'eol' })
  end
end

-- Shows the proposal of `result` in a preview window below the current one. on_accept(text) is
-- called once when the user accepts (text: the buffer's whole text); a cancel calls nothing.
-- `source_bufnr` (the file the target is in) gives the preview its filetype. Returns false
-- (after saying why) when the result cannot be shown.
function M.review(result, source_bufnr, on_accept)
  local p, why = M.parse(result)
  if not p then
    notify("the server's test proposal cannot be shown: " .. why, vim.log.levels.ERROR)
    return false
  end
  if M.current then M.current.decide('cancel') end
  local previous = vim.api.nvim_get_current_win()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, text_lines(p.text))
  pcall(vim.api.nvim_buf_set_name, buf, 'greenlight://proposed/' .. vim.fn.fnamemodify(p.file, ':~:.'))
  -- acwrite: :w runs our BufWriteCmd (accept) and never touches the disk.
  vim.bo[buf].buftype = 'acwrite'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  local ft = source_bufnr and vim.api.nvim_buf_is_valid(source_bufnr) and vim.bo[source_bufnr].filetype or ''
  if ft ~= '' then vim.bo[buf].filetype = ft end
  vim.bo[buf].modified = false
  vim.bo[buf].modifiable = false
  vim.cmd('botright split')
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  vim.wo[win].statusline = statusline(false, p.original)
  vim.wo[win].signcolumn = 'yes'
  mark(buf, p)

  local decided = false
  local maps = { 'a', 'e', 'q', 'c', '<CR>', 'd' }
  -- The current text of an existing test file, beside the proposal (d); closed with it.
  local original_win
  local function decide(action)
    if decided then return end
    decided = true
    local text
    if action == 'accept' and vim.api.nvim_buf_is_valid(buf) then
      text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
    end
    M.current = nil
    M.last = { action = action, text = text, edited = text ~= nil and text ~= p.text }
    if vim.api.nvim_buf_is_valid(buf) then vim.bo[buf].modified = false end
    if original_win and vim.api.nvim_win_is_valid(original_win) then pcall(vim.api.nvim_win_close, original_win, true) end
    if vim.api.nvim_win_is_valid(win) and #vim.api.nvim_list_wins() > 1 then pcall(vim.api.nvim_win_close, win, true) end
    if vim.api.nvim_buf_is_valid(buf) then pcall(vim.api.nvim_buf_delete, buf, { force = true }) end
    if vim.api.nvim_win_is_valid(previous) then pcall(vim.api.nvim_set_current_win, previous) end
    if action == 'accept' then
      on_accept(text)
    else
      notify((p.target and (p.target .. ': ') or '') .. 'proposed tests cancelled; nothing written')
    end
  end
  local function edit()
    if decided or not vim.api.nvim_buf_is_valid(buf) then return end
    vim.bo[buf].modifiable = true
    for _, lhs in ipairs(maps) do pcall(vim.keymap.del, 'n', lhs, { buffer = buf }) end
    if vim.api.nvim_win_is_valid(win) then vim.wo[win].statusline = statusline(true, p.original) end
    notify('edit the proposed tests, then :w to accept them and generate (:q! cancels)')
  end
  local function choose()
    vim.ui.select(kChoices, { prompt = 'greenlight: proposed tests' }, function(choice)
      if choice == kChoices[1] then decide('accept')
      elseif choice == kChoices[2] then edit()
      elseif choice == kChoices[3] then decide('cancel') end
    end)
  end
  local function diff()
    if not p.original then return notify('the test file is new: there is no current text to compare with') end
    if original_win and vim.api.nvim_win_is_valid(original_win) then return end
    vim.api.nvim_set_current_win(win)
    vim.cmd('leftabove vnew')
    original_win = vim.api.nvim_get_current_win()
    local obuf = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(obuf, 0, -1, false, text_lines(p.original))
    pcall(vim.api.nvim_buf_set_name, obuf, 'greenlight://current/' .. vim.fn.fnamemodify(p.file, ':~:.'))
    vim.bo[obuf].buftype = 'nofile'
    vim.bo[obuf].bufhidden = 'wipe'
    vim.bo[obuf].swapfile = false
    if vim.bo[buf].filetype ~= '' then vim.bo[obuf].filetype = vim.bo[buf].filetype end
    vim.bo[obuf].modifiable = false
    vim.wo[original_win].statusline = ' greenlight: the test file now (left) and the proposal (right)'
    vim.cmd('diffthis')
    vim.api.nvim_set_current_win(win)
    vim.cmd('diffthis')
  end
  M.current = { buf = buf, win = win, proposal = p, decide = decide, edit = edit, diff = diff,
    original_win = function() return original_win end }

  local function map(lhs, fn, desc)
    vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true, silent = true, desc = 'greenlight: ' .. desc })
  end
  map('a', function() decide('accept') end, 'accept the proposed tests and generate')
  map('e', edit, 'edit the proposed tests')
  map('q', function() decide('cancel') end, 'cancel: write nothing')
  map('c', function() decide('cancel') end, 'cancel: write nothing')
  map('<CR>', choose, 'accept, edit or cancel')
  map('d', diff, 'the current test file beside the proposal')
  vim.api.nvim_buf_create_user_command(buf, 'GreenlightTestsAccept', function() decide('accept') end,
    { desc = 'accept the proposed tests and generate' })
  vim.api.nvim_buf_create_user_command(buf, 'GreenlightTestsCancel', function() decide('cancel') end,
    { desc = 'cancel the proposed tests' })
  vim.api.nvim_create_autocmd('BufWriteCmd', { buffer = buf, callback = function() decide('accept') end })
  -- Closing the preview any other way (:q!, :bwipeout) cancels.
  vim.api.nvim_create_autocmd('BufWipeout', { buffer = buf, once = true, callback = function()
    vim.schedule(function() decide('cancel') end)
  end })

  local msg, level = M.message(p)
  notify(msg, level)
  return true
end

return M
