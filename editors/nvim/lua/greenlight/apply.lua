-- workspace/applyEdit for greenlight clients. Neovim's own handler would apply an edit whose
-- document version is older than the buffer's by skipping it and still answering
-- applied: true, and would ignore a change annotation that asks for confirmation. This one:
--   * answers applied: false (with the reason) when a versioned document changed since the
--     version the server computed the edit for, so the server knows nothing landed;
--   * shows the diff preview (preview.lua) when an annotation has needsConfirmation, answers
--     applied: false on reject, and checks the versions again after the user answered;
--   * applies the whole edit as ONE undo step of its own: the undo sequence is broken before
--     (so it does not join what the user typed just before) and after (so the user's next
--     change does not join it).
local compat = require('greenlight.compat')
local preview = require('greenlight.preview')

local M = {}

-- The last answer per client ({ applied, failureReason, label }), so the result of
-- greenlight.generate can say why nothing was applied.
M.last = {}

local function buf_version(bufnr)
  local versions = vim.lsp.util.buf_versions
  if type(versions) == 'table' and versions[bufnr] ~= nil then return versions[bufnr] end
  return vim.b[bufnr].changedtick
end

local function text_edits(edit)
  local out = {}
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument and change.edits then table.insert(out, change) end
  end
  for uri, edits in pairs(edit.changes or {}) do
    table.insert(out, { textDocument = { uri = uri }, edits = edits })
  end
  return out
end

-- A message when a versioned document no longer has the version the edit was made for.
function M.stale(edit)
  for _, change in ipairs(text_edits(edit)) do
    local version = change.textDocument.version
    if type(version) == 'number' then
      local bufnr = vim.uri_to_bufnr(change.textDocument.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) then
        local current = buf_version(bufnr)
        if current ~= nil and current ~= version then
          return string.format('%s changed since the edit was made (version %s, now %s)',
            vim.fn.fnamemodify(vim.uri_to_fname(change.textDocument.uri), ':~:.'), tostring(version), tostring(current))
        end
      end
    end
  end
  return nil
end

-- The annotation that asks for confirmation, if any edit uses one.
local function confirmation(edit)
  local annotations = edit.changeAnnotations
  if type(annotations) ~= 'table' then return nil end
  local used = {}
  for _, change in ipairs(text_edits(edit)) do
    for _, e in ipairs(change.edits) do
      if e.annotationId then used[e.annotationId] = true end
    end
  end
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.annotationId then used[change.annotationId] = true end
  end
  for id in pairs(used) do
    local a = annotations[id]
    if type(a) == 'table' and a.needsConfirmation == true then return a end
  end
  return nil
end

-- Each edited document before and after, computed on a scratch copy with Neovim's own
-- apply_text_edits (the same semantics as the real application).
local function preview_files(edit, encoding)
  local files = {}
  for _, change in ipairs(text_edits(edit)) do
    local bufnr = vim.uri_to_bufnr(change.textDocument.uri)
    if not vim.api.nvim_buf_is_loaded(bufnr) then vim.fn.bufload(bufnr) end
    local old = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local scratch = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_lines(scratch, 0, -1, false, old)
    local ok, err = pcall(vim.lsp.util.apply_text_edits, change.edits, scratch, encoding)
    local new = vim.api.nvim_buf_get_lines(scratch, 0, -1, false)
    vim.api.nvim_buf_delete(scratch, { force = true })
    if not ok then error('cannot preview the edit: ' .. tostring(err)) end
    table.insert(files, { name = vim.fn.fnamemodify(vim.uri_to_fname(change.textDocument.uri), ':~:.'), old = old, new = new })
  end
  return files
end

local function break_undo(bufnr)
  if vim.api.nvim_buf_is_loaded(bufnr) then
    vim.api.nvim_buf_call(bufnr, function() vim.cmd('let &g:undolevels = &g:undolevels') end)
  end
end

-- File operations Neovim's apply_workspace_edit gets wrong on the versions we support: a
-- CreateFile with ignoreIfExists creates nothing (0.7 to 0.10), and one whose folder does not
-- exist fails (0.7: no mkdir). Tests first (issue 36) creates tests/test_<module>.py that way.
-- Done here instead: the folder is made, the file created empty when absent (an existing file
-- is never truncated unless `overwrite` says so), and the operation dropped from the edit; a
-- null document version (JSON null, vim.NIL on 0.7) becomes nil, which Neovim compares.
-- Returns the edit left for Neovim and the files created (their text is fixed up after).
local function prepare(edit)
  local created = {}
  if type(edit.documentChanges) ~= 'table' then return edit, created end
  local changes = {}
  for _, change in ipairs(edit.documentChanges) do
    if change.kind == 'create' and type(change.uri) == 'string' then
      local fname = vim.uri_to_fname(change.uri)
      local options = type(change.options) == 'table' and change.options or {}
      local exists = compat.uv.fs_stat(fname) ~= nil
      if not exists or options.overwrite == true then
        vim.fn.mkdir(vim.fn.fnamemodify(fname, ':h'), 'p')
        local file, err = io.open(fname, 'w')
        if not file then error('cannot create ' .. fname .. ': ' .. tostring(err)) end
        file:close()
        table.insert(created, fname)
      end
      vim.fn.bufadd(fname)
    else
      if change.textDocument and change.textDocument.version == vim.NIL then
        change = vim.deepcopy(change)
        change.textDocument.version = nil
      end
      table.insert(changes, change)
    end
  end
  local out = vim.deepcopy(edit)
  out.documentChanges = changes
  return out, created
end

-- An insertion of "a\nb\n" into a new, empty file leaves the buffer's own empty line after
-- it (Neovim's buffer always has one line): the file would end in a blank line the server
-- never sent.
local function trim_created(created)
  for _, fname in ipairs(created) do
    local bufnr = vim.fn.bufnr(fname)
    if bufnr > 0 and vim.api.nvim_buf_is_loaded(bufnr) then
      local count = vim.api.nvim_buf_line_count(bufnr)
      if count > 1 and vim.api.nvim_buf_get_lines(bufnr, count - 1, count, false)[1] == '' then
        vim.api.nvim_buf_set_lines(bufnr, count - 1, count, false, {})
      end
    end
  end
end

local function apply(edit, encoding)
  local created
  edit, created = prepare(edit)
  local buffers = {}
  for _, change in ipairs(text_edits(edit)) do
    local bufnr = vim.uri_to_bufnr(change.textDocument.uri)
    buffers[bufnr] = true
    break_undo(bufnr)
  end
  vim.lsp.util.apply_workspace_edit(edit, encoding)
  trim_created(created)
  for bufnr in pairs(buffers) do break_undo(bufnr) end
end

local function answer(client_id, label, applied, reason)
  M.last[client_id] = { applied = applied, failureReason = reason, label = label }
  if applied then return { applied = true } end
  return { applied = false, failureReason = reason }
end

function M.handler(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client or type(params) ~= 'table' or type(params.edit) ~= 'table' then
    return answer(ctx.client_id, nil, false, 'no edit to apply')
  end
  local edit, label = params.edit, params.label
  local stale = M.stale(edit)
  if stale then return answer(client.id, label, false, stale) end
  local annotation = confirmation(edit)
  if annotation then
    local ok, files = pcall(preview_files, edit, client.offset_encoding)
    if not ok then return answer(client.id, label, false, tostring(files)) end
    local accepted = preview.ask({ label = annotation.label or label, description = annotation.description, files = files })
    if not accepted then return answer(client.id, label, false, 'rejected in the preview') end
    -- The user may have typed while the preview was open (0.10 keeps the editor usable).
    stale = M.stale(edit)
    if stale then return answer(client.id, label, false, stale) end
  end
  local ok, err = pcall(apply, edit, client.offset_encoding)
  if not ok then return answer(client.id, label, false, tostring(err)) end
  return answer(client.id, label, true, nil)
end

M.buf_version = buf_version

return M
