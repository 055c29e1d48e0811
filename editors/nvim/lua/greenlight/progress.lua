-- $/progress from the server (tests running, generation rounds): kept per token so
-- :GreenlightCancel can send window/workDoneProgress/cancel, summarised by status() for
-- statuslines, and shown according to vim.g.greenlight.progress:
--   'echo'   every update echoed, not kept in :messages (generation streams token counts);
--   'notify' vim.notify for the begin, each new phase (a round's "asking the model", "running
--            7 tests", "5/7 passed"; token counts only once per round) and the end;
--   'off'    nothing shown (status() still works);
--   'auto'   (default) 'notify' on Neovim 0.10+, 'echo' on 0.7.
-- Where it comes from: on 0.10 Neovim's own $/progress handler keeps the progress for
-- vim.lsp.status() and fires the LspProgress autocmd, which this module listens to, so any
-- other progress UI (fidget, a statusline) sees greenlight's progress too. 0.7 has no
-- LspProgress: there the client's $/progress handler calls Neovim's (which fires
-- `User LspProgressUpdate`) and then this module (handler()).
local compat = require('greenlight.compat')

local M = {}

-- active[client_id][token] = { title, message, percentage, cancellable, phase }
M.active = {}
-- Every progress value seen, oldest first (bounded): tests and :messages-like inspection.
M.history = {}
local kHistoryLimit = 500

local function format(work)
  local text = 'greenlight: ' .. (work.title or '')
  if work.percentage then text = text .. string.format(' %d%%', work.percentage) end
  if work.message and work.message ~= '' then text = text .. ': ' .. work.message end
  return text
end

function M.mode(configured)
  if configured == 'auto' or configured == nil then return compat.has_010 and 'notify' or 'echo' end
  return configured
end

local function show(mode, text, level)
  if mode == 'off' then return end
  if mode == 'notify' then
    vim.notify(text, level or vim.log.levels.INFO, { title = 'greenlight' })
  else
    vim.api.nvim_echo({ { text, level == vim.log.levels.WARN and 'WarningMsg' or 'MoreMsg' } }, false, {})
  end
end

-- The phase of a report: its message with a streaming token count folded, so "writing… 312
-- tokens" and "writing… 320 tokens" are one phase.
local function phase(message)
  if type(message) ~= 'string' then return '' end
  return (message:gsub('%d+ tokens', 'N tokens'))
end

function M.handle(configured_mode, client_id, token, value)
  if type(value) ~= 'table' then return end
  local mode = M.mode(configured_mode)
  table.insert(M.history, { client_id = client_id, token = token, value = vim.deepcopy(value) })
  if #M.history > kHistoryLimit then table.remove(M.history, 1) end
  M.active[client_id] = M.active[client_id] or {}
  local works = M.active[client_id]
  if value.kind == 'begin' then
    works[token] = {
      title = value.title,
      message = value.message,
      percentage = value.percentage,
      cancellable = value.cancellable == true,
      phase = phase(value.message),
    }
    show(mode, format(works[token]))
  elseif value.kind == 'report' and works[token] then
    local work = works[token]
    if value.message ~= nil then work.message = value.message end
    if value.percentage ~= nil then work.percentage = value.percentage end
    if value.cancellable ~= nil then work.cancellable = value.cancellable == true end
    if mode == 'echo' then
      show(mode, format(work))
    elseif mode == 'notify' and phase(work.message) ~= work.phase then
      work.phase = phase(work.message)
      show(mode, format(work))
    end
  elseif value.kind == 'end' then
    local work = works[token] or { title = value.title or '' }
    works[token] = nil
    work.percentage = nil
    work.message = value.message or 'done'
    show(mode, format(work))
  end
  vim.cmd('redrawstatus')
end

-- The client's $/progress handler on 0.7 (0.10 uses LspProgress, see setup()).
function M.handler(get_mode)
  return function(err, result, ctx, handler_config)
    local default = vim.lsp.handlers['$/progress']
    if default then pcall(default, err, result, ctx, handler_config) end
    if result then M.handle(get_mode(), ctx.client_id, result.token, result.value) end
  end
end

-- On 0.10+: follow LspProgress for clients named greenlight.
function M.setup(get_mode)
  if not compat.has_010 then return end
  local group = vim.api.nvim_create_augroup('greenlight_progress', { clear = true })
  vim.api.nvim_create_autocmd('LspProgress', {
    group = group,
    callback = function(args)
      local data = args.data or {}
      local client = data.client_id and vim.lsp.get_client_by_id(data.client_id)
      if client and client.name == 'greenlight' and data.params then
        M.handle(get_mode(), data.client_id, data.params.token, data.params.value)
      end
    end,
  })
end

-- A request's work is over (its response arrived): forget its token even if the server sent
-- no end (a cancelled request may not).
function M.finish(client_id, token)
  local works = M.active[client_id]
  if works and works[token] then
    works[token] = nil
    vim.cmd('redrawstatus')
  end
end

function M.forget(client_id)
  M.active[client_id] = nil
end

-- Asks the server to cancel all cancellable work of `client`; returns how many.
function M.cancel_all(client)
  local count = 0
  for token, work in pairs(M.active[client.id] or {}) do
    if work.cancellable then
      compat.call(client, 'notify', 'window/workDoneProgress/cancel', { token = token })
      count = count + 1
    end
  end
  return count
end

-- "greenlight: Running tests 40%" while work runs, '' otherwise. For 'statusline'.
function M.status()
  for _, works in pairs(M.active) do
    for _, work in pairs(works) do
      return format(work)
    end
  end
  return ''
end

return M
