// The Testing view's decisions (src/testModel.ts): where a result's item goes, what a result does
// to a TestRun, the TestMessage (a diff when both sides are known), one greenlight.runTests per
// file, and which TestRun a server run belongs to.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeBatch, failureMessage, fileOfId, isCase, isFolder, isWatchedPath, placeFor, RunRouter, runAction, runNotes, runRequests, TestResultsParams } from '../src/testModel';

const range = { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } };

test('ids: the file part, parametrize cases', () => {
  assert.equal(fileOfId('tests/test_m.py::TestA::test_b'), 'tests/test_m.py');
  assert.equal(fileOfId('tests/test_m.py'), 'tests/test_m.py');
  assert.equal(isCase('tests/test_m.py::test_b[1-2]'), true);
  assert.equal(isCase('tests/test_m.py::test_b'), false);
  assert.equal(isCase('sum.test.js::adds [1]'), false, 'a JS title in brackets is no case');
});

test('a result the listing did not have goes under its parent, else its file, else the top', () => {
  const known = new Set(['t.py', 't.py::test_b']);
  const has = (id: string) => known.has(id);
  assert.equal(placeFor({ id: 't.py::test_b[1]', parent: 't.py::test_b' }, has), 't.py::test_b');
  assert.equal(placeFor({ id: 't.py::TestX::test_c', parent: 't.py::TestX' }, has), 't.py');
  assert.equal(placeFor({ id: 'other.py::test_d', parent: 'other.py' }, has), undefined);
});

test('statuses map to TestRun calls', () => {
  assert.deepEqual(
    (['queued', 'started', 'passed', 'failed', 'errored', 'skipped'] as const).map(runAction),
    ['enqueued', 'started', 'passed', 'failed', 'errored', 'skipped'],
  );
});

test('failure messages: a diff with both sides, at the assertion; the plain message otherwise', () => {
  const location = { uri: 'file:///ws/tests/test_m.py', range };
  assert.deepEqual(failureMessage({ id: 'x', status: 'failed', message: 'AssertionError: 8 != 2', expected: '2', actual: '8', location }), {
    text: 'AssertionError: 8 != 2',
    expected: '2',
    actual: '8',
    location,
  });
  assert.deepEqual(failureMessage({ id: 'x', status: 'errored', message: 'ZeroDivisionError', expected: '2' }), { text: 'ZeroDivisionError' });
  assert.equal(failureMessage({ id: 'x', status: 'errored', outcome: 'timeout', message: 'killed' }).text, 'timeout: killed');
  assert.equal(failureMessage({ id: 'x', status: 'errored' }).text, 'the test did not complete');
});

test('run requests: one greenlight.runTests per file, ids unless the whole file was asked for', () => {
  assert.deepEqual(
    runRequests([
      { id: 't.py::test_a', kind: 'test', fileUri: 'file:///ws/t.py' },
      { id: 't.py::TestB', kind: 'group', fileUri: 'file:///ws/t.py' },
      { id: 'u.py', kind: 'file', fileUri: 'file:///ws/u.py' },
      { id: 'u.py::test_c', kind: 'test', fileUri: 'file:///ws/u.py' },
    ]),
    [
      { uri: 'file:///ws/t.py', tests: ['t.py::test_a', 't.py::TestB'] },
      { uri: 'file:///ws/u.py' },
    ],
  );
});

test('run router: our requests get their server runs in order; other triggers get runs of their own', () => {
  const router = new RunRouter<string>();
  const params = (id: number, trigger: TestResultsParams['run']['trigger'], state: TestResultsParams['run']['state']): TestResultsParams => ({
    uri: 'file:///ws/m.py',
    run: { id, trigger, state },
    results: [],
  });
  let created = 0;
  const create = () => `background-${++created}`;
  router.expect('mine-1');
  router.expect('mine-2');
  assert.deepEqual(router.route(params(1, 'save', 'started'), create), { run: 'background-1', ours: false });
  assert.deepEqual(router.route(params(2, 'runTests', 'started'), create), { run: 'mine-1', ours: true });
  assert.deepEqual(router.route(params(3, 'runTests', 'started'), create), { run: 'mine-2', ours: true });
  assert.deepEqual(router.route(params(2, 'runTests', 'running'), create), { run: 'mine-1', ours: true });
  router.end(2);
  // A runTests run nobody here asked for (a CodeLens click): a run of its own.
  assert.deepEqual(router.route(params(4, 'runTests', 'started'), create), { run: 'background-2', ours: false });
  // A request that ended before its server run started is no longer waited for.
  router.expect('mine-3');
  router.forget('mine-3');
  assert.deepEqual(router.route(params(5, 'runTests', 'started'), create), { run: 'background-3', ours: false });
  // A finished notification of a run never seen, with no results: nothing to show.
  assert.equal(router.route(params(6, 'save', 'finished'), create), undefined);
});

test('workspace listing: watched paths, folders told from tests', () => {
  for (const p of ['tests/test_m.py', 'src/__tests__/a.js', 'web/sum.spec.ts', 'buildtools/x_test.cpp']) assert.ok(isWatchedPath(p), p);
  for (const p of ['node_modules/x/a.test.js', '.git/index', '.venv/lib/test_a.py', 'pkg/__pycache__/test_a.pyc', 'build-debug/t_test.cpp', 'dist/a.test.js'])
    assert.ok(!isWatchedPath(p), p);
  assert.ok(isFolder({ id: 'tests/', label: 'tests', kind: 'folder', uri: 'file:///w/tests', parent: null }));
  assert.ok(!isFolder({ id: 'tests/test_m.py', label: 'test_m.py', kind: 'file', uri: 'file:///w/tests/test_m.py', parent: 'tests/', range }));
});

test('workspace listing: changes are batched into one request once they stop coming', async () => {
  const flushed: string[][] = [];
  const batch = new ChangeBatch(30, (uris) => flushed.push(uris));
  batch.add('file:///w/a_test.py');
  batch.add('file:///w/b_test.py');
  batch.add('file:///w/a_test.py');
  assert.deepEqual(flushed, [], 'nothing before the delay');
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(flushed, [['file:///w/a_test.py', 'file:///w/b_test.py']]);
  batch.add('file:///w/c_test.py');
  batch.fire();
  assert.deepEqual(flushed[1], ['file:///w/c_test.py'], 'fire() hands over at once');
  batch.fire();
  assert.equal(flushed.length, 2, 'an empty batch sends nothing');
  batch.add('file:///w/d_test.py');
  batch.dispose();
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(flushed.length, 2, 'nothing after dispose');
});

test("a run's notes: its error, and why it has no coverage when greenlight dropped it", () => {
  assert.deepEqual(runNotes({ id: 1, trigger: 'save', state: 'finished' }), []);
  assert.deepEqual(runNotes({ id: 1, trigger: 'save', state: 'finished', error: '', coverageNote: '' }), []);
  const note = 'coverage not measured: with it, the run reached its time limit (30 s); the results are of a run without it';
  assert.deepEqual(runNotes({ id: 2, trigger: 'runTests', state: 'finished', coverageNote: note }), [note]);
  assert.deepEqual(runNotes({ id: 3, trigger: 'runTests', state: 'cancelled', error: 'cancelled', coverageNote: note }), ['cancelled', note]);
});
