-- The plugin's workspace/applyEdit handler on its own (called directly, as Neovim would for a
-- greenlight client): a stale document version is refused with applied: false and the buffer
-- untouched (Neovim's handler would skip it and still say applied: true), a current one is
-- applied as one undo step however many edits it has, an unversioned `changes` edit applies,
-- and the preview also works modally (the path 0.7 always takes, and any version when the
-- handler runs outside Neovim's request coroutine): scroll keys, then accept or reject.
local H = require('harness')

H.run(60, function()
  local root = H.tempdir('apply')
  H.write(root .. '/.git/HEAD', { 'ref: refs/heads/main' })
  H.write(root .. '/m.py', { 'def f():', '    return 1', '', 'def g():', '    return 2' })
  local apply = require('greenlight.apply')
  local preview = require('greenlight.preview')

  H.step('attach')
  local bufnr, client = H.open(root .. '/m.py')
  local uri = vim.uri_from_bufnr(bufnr)
  local ctx = { client_id = client.id, method = 'workspace/applyEdit' }
  local function range(l1, c1, l2, c2)
    return { start = { line = l1, character = c1 }, ['end'] = { line = l2, character = c2 } }
  end
  local function versioned(version, edits, annotations)
    return { label = 'test', edit = { documentChanges = { { textDocument = { uri = uri, version = version }, edits = edits } },
      changeAnnotations = annotations } }
  end

  H.step('a stale version is refused: applied false, buffer untouched')
  local version = apply.buf_version(bufnr)
  H.check(type(version) == 'number', 'no buffer version: ' .. vim.inspect(version))
  local before = H.lines(bufnr)
  local answer = apply.handler(nil, versioned(version - 1, { { range = range(1, 11, 1, 12), newText = '9' } }), ctx)
  H.eq(answer.applied, false, 'applied')
  H.contains(answer.failureReason, 'changed since the edit was made', 'failureReason')
  H.eq(H.lines(bufnr), before, 'the buffer')

  H.step('the current version: two edits, one undo step')
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '# typed first' })
  before = H.lines(bufnr)
  answer = apply.handler(nil, versioned(apply.buf_version(bufnr), {
    { range = range(2, 11, 2, 12), newText = '10' },
    { range = range(5, 11, 5, 12), newText = '20' },
  }), ctx)
  H.eq(answer, { applied = true }, 'answer')
  H.eq(H.lines(bufnr), { '# typed first', 'def f():', '    return 10', '', 'def g():', '    return 20' }, 'the buffer')
  vim.cmd('normal! u')
  H.eq(H.lines(bufnr), before, 'after one `u`')

  H.step('an unversioned `changes` edit applies')
  answer = apply.handler(nil, { edit = { changes = { [uri] = { { range = range(0, 0, 1, 0), newText = '' } } } } }, ctx)
  H.eq(answer, { applied = true }, 'answer')
  H.eq(H.lines(bufnr)[1], 'def f():', 'the first line')

  local annotated = function()
    return versioned(apply.buf_version(bufnr), { { range = range(1, 11, 1, 12), newText = '42', annotationId = 'gl' } },
      { gl = { label = 'f: 1/1 tests passed in 1 rounds', needsConfirmation = true, description = 'test_f passes' } })
  end

  H.step('modal preview: scroll keys, then accept')
  before = H.lines(bufnr)
  H.typeahead('jk<C-d>a')
  answer = apply.handler(nil, annotated(), ctx)
  H.eq(answer, { applied = true }, 'answer')
  H.eq(preview.last.accepted, true, 'preview answer')
  H.eq(preview.last.lines[1], 'greenlight: f: 1/1 tests passed in 1 rounds', 'header (the annotation label)')
  H.eq(preview.last.lines[2], 'test_f passes', 'the annotation description')
  H.check(vim.tbl_contains(preview.last.lines, '-    return 1') and vim.tbl_contains(preview.last.lines, '+    return 42'),
    'the diff: ' .. vim.inspect(preview.last.lines))
  H.eq(H.lines(bufnr)[2], '    return 42', 'the edited line')
  H.check(preview.current == nil, 'the preview is still open')
  H.eq(#vim.api.nvim_list_wins(), 1, 'windows after the preview closed')

  H.step('modal preview: reject')
  before = H.lines(bufnr)
  H.typeahead('q')
  answer = apply.handler(nil, annotated(), ctx)
  H.eq(answer, { applied = false, failureReason = 'rejected in the preview' }, 'answer')
  H.eq(H.lines(bufnr), before, 'the buffer')

  H.step('an annotation without needsConfirmation applies without asking')
  preview.last = nil
  local plain = annotated()
  plain.edit.changeAnnotations.gl.needsConfirmation = false
  answer = apply.handler(nil, plain, ctx)
  H.eq(answer, { applied = true }, 'answer')
  H.eq(preview.last, nil, 'a preview was shown')
end)
