import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticLike, diagnosticCode, fixArguments, isFixable, pickDiagnostic } from '../src/fix';

const d = (line: number, endLine: number, code: DiagnosticLike['code'], extra: Partial<DiagnosticLike> & { id?: string } = {}) => ({
  range: { start: { line, character: 4 }, end: { line: endLine, character: 20 } },
  source: 'greenlight',
  code,
  ...extra,
});

test('fixable: greenlight diagnostics of the five failure codes only', () => {
  for (const code of ['test-failed', 'runtime-error', 'timeout', 'memory-limit', 'compile-error']) assert.ok(isFixable(d(1, 1, code)), code);
  assert.ok(isFixable(d(1, 1, { value: 'test-failed' })), 'code with a codeDescription');
  assert.equal(isFixable(d(1, 1, 'no-tests')), false);
  assert.equal(isFixable(d(1, 1, undefined)), false);
  assert.equal(isFixable(d(1, 1, 'test-failed', { source: 'pylint' })), false);
  assert.equal(diagnosticCode(d(1, 1, 42)), '42');
});

test('the diagnostic under the cursor wins, the narrowest when they nest', () => {
  const wide = { ...d(2, 9, 'runtime-error'), id: 'wide' };
  const narrow = { ...d(5, 5, 'test-failed'), id: 'narrow' };
  const other = { ...d(20, 20, 'test-failed'), id: 'other' };
  assert.equal(pickDiagnostic([wide, narrow, other], { line: 5, character: 10 })?.id, 'narrow');
  assert.equal(pickDiagnostic([wide, narrow, other], { line: 3, character: 0 })?.id, 'wide');
});

test('else the nearest by lines; non-fixable ones are skipped; none gives undefined', () => {
  const above = { ...d(2, 3, 'test-failed'), id: 'above' };
  const below = { ...d(12, 12, 'timeout'), id: 'below' };
  const lint = { ...d(8, 8, 'test-failed', { source: 'flake8' }), id: 'lint' };
  assert.equal(pickDiagnostic([above, below, lint], { line: 8, character: 0 })?.id, 'below');
  assert.equal(pickDiagnostic([above, below, lint], { line: 6, character: 0 })?.id, 'above');
  assert.equal(pickDiagnostic([above, below], { line: 7, character: 0 })?.id, 'above', 'a tie goes to the first published');
  assert.equal(pickDiagnostic([{ ...d(5, 5, 'test-failed'), id: 'same-line' }], { line: 5, character: 30 })?.id, 'same-line');
  assert.equal(pickDiagnostic([lint], { line: 8, character: 0 }), undefined);
  assert.equal(pickDiagnostic([], { line: 0, character: 0 }), undefined);
});

test('greenlight.fix arguments: uri, the diagnostic\'s start, the diagnostic untouched', () => {
  const diagnostic = { ...d(4, 6, 'test-failed'), message: 'assert slugify("A B") == "a-b"', data: { test: 'test_basic', expected: "'a-b'" } };
  const args = fixArguments('file:///w/m.py', diagnostic);
  assert.deepEqual(args, { uri: 'file:///w/m.py', position: { line: 4, character: 4 }, diagnostic });
  assert.equal(args.diagnostic, diagnostic, 'passed as is, data included');
});
