-- The diagnostics exactly as the server published them. greenlight.fix must get a diagnostic
-- back untouched (its `data` says which test failed and how), and vim.diagnostic keeps only a
-- converted copy (0.7 drops the range, the message and the code from user_data.lsp), so the
-- publishDiagnostics handler stores the raw list per client and uri before Neovim's own
-- handler shows them.
local M = {}

-- The diagnostic codes greenlight.fix works on (DESIGN.md "LSP surface"); others (say a
-- "no-tests" hint) are not offered a fix.
M.fixable = { ['test-failed'] = true, ['runtime-error'] = true, timeout = true, ['memory-limit'] = true,
  ['compile-error'] = true }

-- published[client_id][uri] = { LSP Diagnostic, ... }
M.published = {}

function M.handler(err, result, ctx, handler_config)
  if result and result.uri then
    M.published[ctx.client_id] = M.published[ctx.client_id] or {}
    M.published[ctx.client_id][result.uri] = result.diagnostics or {}
  end
  local default = vim.lsp.handlers['textDocument/publishDiagnostics']
  if default then return default(err, result, ctx, handler_config) end
end

function M.forget(client_id)
  M.published[client_id] = nil
end

-- Byte column of an LSP position on `line` (0-based) of `bufnr`, in the client's encoding.
local function byte_col(bufnr, line, character, encoding)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''
  if encoding == 'utf-8' then return math.min(character, #text) end
  local ok, col = pcall(vim.str_byteindex, text, character, encoding == 'utf-16')
  if ok then return col end
  return #text
end

-- The greenlight diagnostic to fix at the cursor of `bufnr` for `client`: the one whose range
-- holds the cursor, else the nearest one on the cursor's line. Returns the raw diagnostic or
-- nil.
function M.at_cursor(client, bufnr, cursor)
  local uri = vim.uri_from_bufnr(bufnr)
  local list = (M.published[client.id] or {})[uri] or {}
  local row, col = cursor[1] - 1, cursor[2]
  local best, best_distance = nil, math.huge
  for _, d in ipairs(list) do
    local r = d.range or {}
    local s, e = r.start or {}, r['end'] or {}
    if type(s.line) == 'number' and type(e.line) == 'number' and s.line <= row and row <= e.line
        and (d.source == nil or d.source == 'greenlight') and (d.code == nil or M.fixable[d.code]) then
      local first = s.line == row and byte_col(bufnr, row, s.character or 0, client.offset_encoding) or 0
      local last = e.line == row and byte_col(bufnr, row, e.character or 0, client.offset_encoding) or math.huge
      local distance
      if first <= col and col <= last then
        distance = 0
      elseif col < first then
        distance = first - col
      else
        distance = col - last
      end
      if distance < best_distance then best, best_distance = d, distance end
    end
  end
  return best
end

-- All raw diagnostics of `client` for `bufnr`.
function M.for_buffer(client, bufnr)
  return (M.published[client.id] or {})[vim.uri_from_bufnr(bufnr)] or {}
end

return M
