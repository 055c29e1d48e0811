-- $/progress from the server (after window/workDoneProgress/create): shown with nvim_echo or
-- vim.notify (vim.g.greenlight.progress = 'echo' | 'notify' | 'off'), kept per token so
-- :GreenlightCancel can send window/workDoneProgress/cancel, and summarised by status() for
-- statuslines. Neovim's own handler still runs, so other progress UIs keep working.
local M = {}

-- active[client_id][token] = { title, message, percentage, cancellable }
M.active = {}
-- Every progress value seen, oldest first (bounded): tests and :messages-like inspection.
M.history = {}
local kHistoryLimit = 200

local function format(work)
  local text = 'greenlight: ' .. (work.title or '')
  if work.percentage then text = text .. string.format(' %d%%', work.percentage) end
  if work.message and work.message ~= '' then text = text .. ': ' .. work.message end
  return text
end

local function show(mode, text, level)
  if mode == 'off' then return end
  if mode == 'notify' then
    vim.notify(text, level or vim.log.levels.INFO)
  else
    vim.api.nvim_echo({ { text, level == vim.log.levels.WARN and 'WarningMsg' or 'MoreMsg' } }, false, {})
  end
end

function M.handle(mode, client_id, token, value)
  if type(value) ~= 'table' then return end
  table.insert(M.history, { client_id = client_id, token = token, value = value })
  if #M.history > kHistoryLimit then table.remove(M.history, 1) end
  M.active[client_id] = M.active[client_id] or {}
  local works = M.active[client_id]
  if value.kind == 'begin' then
    works[token] = {
      title = value.title,
      message = value.message,
      percentage = value.percentage,
      cancellable = value.cancellable == true,
    }
    show(mode, format(works[token]))
  elseif value.kind == 'report' and works[token] then
    local work = works[token]
    if value.message ~= nil then work.message = value.message end
    if value.percentage ~= nil then work.percentage = value.percentage end
    -- Reports can be frequent: echo them, but notify only begin and end.
    if mode == 'echo' then show(mode, format(work)) end
  elseif value.kind == 'end' then
    local work = works[token] or { title = '' }
    works[token] = nil
    work.percentage = nil
    work.message = value.message or 'done'
    show(mode, format(work))
  end
  vim.cmd('redrawstatus')
end

function M.forget(client_id)
  M.active[client_id] = nil
end

-- Asks the server to cancel all cancellable work of `client`; returns how many.
function M.cancel_all(client)
  local count = 0
  for token, work in pairs(M.active[client.id] or {}) do
    if work.cancellable then
      client.notify('window/workDoneProgress/cancel', { token = token })
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
