-- The Python workspace the generate / fix / CodeLens scenarios run in: real code with real
-- tests, so the same scenario runs against the scripted fake server and against the real
-- `greenlight lsp` with a scripted model. The fake scripts its behaviour by the target's name
-- (tests/editors/fake/fake_server.py); the scripted model of the *_real tests
-- (scripted-model.json, matching the prompt's "definition of NAME()") does the same:
--   mul       correct (`return a * b`) in round 2 (round 1 fails one of test_mul/test_mul_zero)
--   square    correct (`return x * x`) once the editor has typed meanwhile: the fake waits for the
--             next didChange, the scripted model holds its reply until H.release_model('square')
--             (then streams slowly, leaving Neovim's 150 ms change debounce time to send)
--   fact      never finishes (it is cancelled)
--   is_prime  never correct (best 1/2 from the fake, 0/1 from the real server)
--   add       (fix) `return a + b` at once, only when the failure is fed back as round-0 feedback
local H = require('harness')

local W = {}

W.calc = {
  'def add(a, b):',
  '    return a + b',
  '',
  '',
  '# Return the product of a and b.',
  'def mul(a, b):',
  '    pass',
  '',
  '',
  '# Return x squared.',
  'def square(x):',
  '    pass',
  '',
  '',
  '# Return n factorial.',
  'def fact(n):',
  '    pass',
  '',
  '',
  '# Return True when n is a prime number.',
  'def is_prime(n):',
  '    pass',
}

W.tests = {
  'from calc import add, mul, square, fact, is_prime',
  '',
  '',
  'def test_add():',
  '    assert add(2, 3) == 5',
  '',
  '',
  'def test_mul():',
  '    assert mul(3, 4) == 12',
  '',
  '',
  'def test_mul_zero():',
  '    assert mul(0, 7) == 0',
  '',
  '',
  'def test_square():',
  '    assert square(3) == 9',
  '',
  '',
  'def test_fact():',
  '    assert fact(5) == 120',
  '',
  '',
  'def test_is_prime():',
  '    assert is_prime(7)',
  '    assert not is_prime(8)',
}

-- Writes the workspace under the scratch directory; returns its root. `calc` replaces the
-- module's lines; `settings` goes into .greenlight.json.
function W.create(name, calc, settings)
  local root = H.tempdir(name)
  H.write(root .. '/.git/HEAD', { 'ref: refs/heads/main' })
  H.write(root .. '/.greenlight.json', { vim.json.encode(settings or { sandbox = { timeLimitSeconds = 20 } }) })
  H.write(root .. '/calc.py', calc or W.calc)
  H.write(root .. '/test_calc.py', W.tests)
  return root
end

-- The fake logs what it receives here (ignored by the real server).
function W.log_to(root)
  local path = root .. '/fake-log.jsonl'
  vim.env.GREENLIGHT_FAKE_LOG = path
  return path
end

-- Puts the cursor on the comment line above `def name(` and returns that line (1-based).
function W.cursor_on_comment(bufnr, name)
  for i, l in ipairs(H.lines(bufnr)) do
    if l:find('^def ' .. name .. '%(') then
      vim.api.nvim_win_set_cursor(0, { i - 1, 0 })
      return i - 1
    end
  end
  H.fail('no def ' .. name .. ' in the buffer')
end

-- The body lines of `def name(` in `bufnr` (up to the next blank line).
function W.body(bufnr, name)
  local lines = H.lines(bufnr)
  for i, l in ipairs(lines) do
    if l:find('^def ' .. name .. '%(') then
      local out = {}
      for j = i + 1, #lines do
        if lines[j] == '' then break end
        table.insert(out, lines[j])
      end
      return out
    end
  end
  H.fail('no def ' .. name .. ' in the buffer')
end

return W
