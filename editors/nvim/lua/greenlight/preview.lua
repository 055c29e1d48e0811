-- The diff preview shown before a workspace edit whose change annotation asks for confirmation
-- (refine.preview = true, or an unverified result): a float with the label, the description and
-- a unified diff per file, answered with a (accept) or r (reject).
--
-- Neovim 0.10 runs server-request handlers inside a coroutine, so there the handler yields
-- while the float waits for the user: the editor stays usable (scroll the float, look at the
-- code, even type) and the answer goes to the server when the user decides. Neovim 0.7 calls
-- handlers on the main thread and needs the answer as the return value, so there the float is
-- modal: it reads keys with getcharstr() until a or r (scrolling keys move the float).
local compat = require('greenlight.compat')

local M = {}

-- The preview on screen ({ buf, win, lines, decide = function(accepted) }) or nil; and the
-- last one shown ({ lines, accepted }), for tests and for a user who wants to look again.
M.current = nil
M.last = nil

local queue = {}

local kAccept = { a = true, y = true, ['\r'] = true }
local kReject = { r = true, n = true, q = true, ['\27'] = true }
local kScroll = { j = 'j', k = 'k', ['\4'] = '\4', ['\21'] = '\21', ['\6'] = '\6', ['\2'] = '\2', G = 'G', g = 'gg',
  ['<Down>'] = 'j', ['<Up>'] = 'k' }

-- The lines shown: a header, then `diff -u` of every file.
function M.render(spec)
  local lines = { 'greenlight: ' .. (spec.label or 'apply this edit?') }
  if spec.description and spec.description ~= '' then
    for _, l in ipairs(vim.split(spec.description, '\n', { plain = true })) do table.insert(lines, l) end
  end
  table.insert(lines, '[a]ccept  [r]eject')
  for _, file in ipairs(spec.files or {}) do
    local old = table.concat(file.old, '\n') .. '\n'
    local new = table.concat(file.new, '\n') .. '\n'
    table.insert(lines, '--- a/' .. file.name)
    table.insert(lines, '+++ b/' .. file.name)
    local diff = compat.diff(old, new, { ctxlen = 3 }) or ''
    for _, l in ipairs(vim.split(diff, '\n', { plain = true })) do
      if l ~= '' then table.insert(lines, l) end
    end
  end
  return lines
end

local function open(lines, enter)
  -- The float takes the keys: leave Insert mode (the user may be typing when the edit comes).
  if vim.api.nvim_get_mode().mode:sub(1, 1) == 'i' then vim.cmd('stopinsert') end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = 'diff'
  local width = 20
  for _, l in ipairs(lines) do width = math.max(width, vim.fn.strdisplaywidth(l)) end
  width = math.min(width + 1, math.max(20, vim.o.columns - 4))
  local height = math.min(#lines, math.max(3, vim.o.lines - 4))
  local win = vim.api.nvim_open_win(buf, enter, {
    relative = 'editor',
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1),
    col = math.max(0, math.floor((vim.o.columns - width) / 2)),
    width = width,
    height = height,
    style = 'minimal',
    border = 'rounded',
  })
  vim.wo[win].wrap = false
  return buf, win
end

local function close(win)
  if win and vim.api.nvim_win_is_valid(win) then pcall(vim.api.nvim_win_close, win, true) end
end

-- Modal: returns true (accept) or false.
local function ask_modal(lines)
  local previous = vim.api.nvim_get_current_win()
  local buf, win = open(lines, true)
  M.current = { buf = buf, win = win, lines = lines, modal = true }
  local accepted = false
  while true do
    vim.cmd('redraw')
    local ok, key = pcall(vim.fn.getcharstr)
    if not ok then break end -- interrupted (CTRL-C): reject
    if kAccept[key] then accepted = true break end
    if kReject[key] then break end
    local motion = kScroll[key] or (vim.fn.exists('*keytrans') == 1 and kScroll[vim.fn.keytrans(key)])
    if motion and vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_call(win, function() vim.cmd('normal! ' .. motion) end)
    end
  end
  close(win)
  if vim.api.nvim_win_is_valid(previous) then vim.api.nvim_set_current_win(previous) end
  M.current = nil
  return accepted
end

local show_next

-- Asynchronous: calls on_decision(accepted) once, when the user answers or closes the float.
local function ask_async(lines, on_decision)
  local previous = vim.api.nvim_get_current_win()
  local buf, win = open(lines, true)
  local decided = false
  local function decide(accepted)
    if decided then return end
    decided = true
    M.current = nil
    close(win)
    if vim.api.nvim_win_is_valid(previous) then pcall(vim.api.nvim_set_current_win, previous) end
    on_decision(accepted)
    show_next()
  end
  M.current = { buf = buf, win = win, lines = lines, decide = decide, modal = false }
  local function map(keys, accepted)
    for _, lhs in ipairs(keys) do
      vim.keymap.set('n', lhs, function() decide(accepted) end, { buffer = buf, nowait = true, silent = true,
        desc = accepted and 'greenlight: accept the edit' or 'greenlight: reject the edit' })
    end
  end
  map({ 'a', 'y', '<CR>' }, true)
  map({ 'r', 'n', 'q', '<Esc>' }, false)
  -- Closing the float any other way (:q, :close, wiping the buffer) rejects.
  vim.api.nvim_create_autocmd({ 'BufWipeout' }, { buffer = buf, once = true, callback = function()
    vim.schedule(function() decide(false) end)
  end })
end

show_next = function()
  local item = table.remove(queue, 1)
  if item then ask_async(item.lines, item.on_decision) end
end

-- Shows `spec` ({ label, description, files = {{ name, old = lines, new = lines }} }) and
-- returns whether the user accepted. Inside a 0.10 handler coroutine this yields until the
-- user answers; elsewhere it is modal.
function M.ask(spec)
  local lines = M.render(spec)
  local co = compat.handler_coroutine()
  local accepted
  if co then
    local function on_decision(decision)
      vim.schedule(function()
        local ok, err = coroutine.resume(co, decision)
        if not ok then
          vim.schedule(function()
            vim.notify('greenlight: answering workspace/applyEdit failed: ' .. tostring(err), vim.log.levels.ERROR)
          end)
        end
      end)
    end
    if M.current then
      table.insert(queue, { lines = lines, on_decision = on_decision })
    else
      ask_async(lines, on_decision)
    end
    accepted = coroutine.yield()
  else
    accepted = ask_modal(lines)
  end
  M.last = { lines = lines, accepted = accepted }
  return accepted
end

return M
