// Coverage in the Testing view (issue 35): the wire's `coverage` checked (src/coverageModel.ts),
// turned into FileCoverage / TestCoverageCount / StatementCoverage on the run (src/coverage.ts),
// and the server's "not-run" diagnostics never taken for something greenlight.fix can fix.
import { FileCoverage, Range, Position, StatementCoverage, stub, TestCoverageCount } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { CoverageFeature, coverageApi, FileCoverageLike, statements } from '../src/coverage';
import { coverageOf, linesRunText, notRunLines } from '../src/coverageModel';
import { isFixable, pickDiagnostic } from '../src/fix';

const wire = [
  { uri: 'file:///ws/m.py', lines: [[4, 3], [2, 1], [5, 0], [7, 0], [3, 2]] },
  { uri: 'file:///ws/other.py', lines: [] },
];

test('coverage wire: lines 0-based and sorted, covered of total, the lines no test ran', () => {
  const files = coverageOf(wire);
  assert.equal(files.length, 2);
  const m = files[0]!;
  assert.equal(m.uri, 'file:///ws/m.py');
  assert.deepEqual(m.statements, [
    { line: 1, count: 1 },
    { line: 2, count: 2 },
    { line: 3, count: 3 },
    { line: 4, count: 0 },
    { line: 6, count: 0 },
  ]);
  assert.deepEqual([m.covered, m.total], [3, 5]);
  assert.equal(linesRunText(m), '3/5 lines run');
  assert.deepEqual(notRunLines(m), [4, 6]);
  assert.deepEqual([files[1]!.covered, files[1]!.total], [0, 0], 'a file with no executable line is still reported');
});

test('coverage wire: absent is nothing; malformed entries are dropped with a reason, the rest kept', () => {
  assert.deepEqual(coverageOf(undefined), []);
  assert.deepEqual(coverageOf(null), []);
  const problems: string[] = [];
  const files = coverageOf(
    [
      { uri: 'file:///ws/m.py', lines: [[0, 1], [2, -1], [3, 1.5], 'x', [4, 2], [4, 1]] },
      { lines: [[1, 1]] },
      { uri: 'file:///ws/n.py', lines: 'all' },
    ],
    (why) => problems.push(why),
  );
  assert.equal(files.length, 1);
  assert.deepEqual(files[0]!.statements, [{ line: 3, count: 3 }], 'a line given twice counts once, summed');
  assert.equal(problems.length, 6, problems.join('\n'));
  assert.match(problems[0]!, /coverage\[0\] \(file:\/\/\/ws\/m\.py\): ignored the entry \[0,1\]/);
  assert.match(problems[4]!, /coverage\[1\]: expected \{uri, lines\}/);
  const notAList: string[] = [];
  assert.deepEqual(coverageOf({ uri: 'file:///ws/m.py' }, (why) => notAList.push(why)), []);
  assert.deepEqual(notAList, ['coverage: expected a list, got object']);
});

test('statement coverage: one per executable line with its count, the whole line when its length is known', () => {
  const api = coverageApi(stub)!;
  assert.ok(api, 'the stub has the 1.88 API');
  const [m] = coverageOf(wire);
  const out = statements(api, m!, (line) => (line === 6 ? undefined : 10 + line)) as StatementCoverage[];
  assert.equal(out.length, 5);
  assert.ok(out.every((s) => s instanceof StatementCoverage));
  assert.deepEqual(
    out.map((s) => s.executed),
    [1, 2, 3, 0, 0],
  );
  const first = out[0]!.location as Range;
  assert.ok(first instanceof Range);
  assert.deepEqual([first.start.line, first.start.character, first.end.line, first.end.character], [1, 0, 1, 11]);
  const unknownLength = out[4]!.location;
  assert.ok(unknownLength instanceof Position, 'a line past the document: a position at its start');
  assert.deepEqual([unknownLength.line, unknownLength.character], [6, 0]);
});

test('an older VS Code without the coverage API: nothing is reported, nothing throws', () => {
  assert.equal(coverageApi({}), undefined);
  assert.equal(coverageApi({ FileCoverage: class {}, TestCoverageCount: class {} }), undefined);
  const feature = new CoverageFeature(undefined, () => undefined, (u) => ({ toString: () => u }) as unknown as vscode.Uri);
  assert.equal(feature.available, false);
  const run = { addCoverage: () => assert.fail('no coverage without the API') } as unknown as vscode.TestRun;
  assert.equal(feature.report(run, coverageOf(wire)), 0);
});

test('a finished run gets one FileCoverage per covered file; its details are the lines, loaded on demand', async () => {
  const logged: string[] = [];
  const uri = (u: string) => {
    if (u.includes('bad')) throw new Error('bad uri');
    return { toString: () => u, fsPath: u.replace('file://', '') } as unknown as vscode.Uri;
  };
  const feature = new CoverageFeature(coverageApi(stub), (l) => logged.push(l), uri);
  const added: FileCoverage[] = [];
  const run = { addCoverage: (c: FileCoverage) => added.push(c) } as unknown as vscode.TestRun;
  const files = coverageOf([...wire, { uri: 'file:///ws/bad.py', lines: [[1, 1]] }]);
  assert.equal(feature.report(run, files), 2);
  assert.equal(added.length, 2);
  assert.ok(added[0] instanceof FileCoverage);
  assert.equal(String(added[0]!.uri), 'file:///ws/m.py');
  assert.ok(added[0]!.statementCoverage instanceof TestCoverageCount);
  assert.deepEqual([added[0]!.statementCoverage.covered, added[0]!.statementCoverage.total], [3, 5]);
  assert.match(logged.join('\n'), /coverage: ignored file:\/\/\/ws\/bad\.py: bad uri/);
  assert.equal(feature.report(run, []), 0, 'nothing measured: nothing added');

  // The profile's loadDetailedCoverage answers for what this feature reported, and nothing else.
  const profile = {} as { loadDetailedCoverage?: (r: unknown, f: FileCoverageLike, t: unknown) => Thenable<unknown[]> };
  feature.attachTo(profile as unknown as vscode.TestRunProfile);
  assert.equal(typeof profile.loadDetailedCoverage, 'function');
  const token = { isCancellationRequested: false };
  // The stub has no workspace.openTextDocument: details fall back to line starts.
  const details = (await profile.loadDetailedCoverage!(run, added[0]! as unknown as FileCoverageLike, token)) as StatementCoverage[];
  assert.deepEqual(
    details.map((s) => [(s.location as Position).line, s.executed]),
    [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 0],
      [6, 0],
    ],
  );
  const stranger = new FileCoverage(uri('file:///ws/m.py'), new TestCoverageCount(1, 1));
  assert.deepEqual(await profile.loadDetailedCoverage!(run, stranger as unknown as FileCoverageLike, token), []);
});

test('the server\'s "no test runs this line" diagnostics are shown as sent, never offered to Fix', () => {
  const notRun = {
    range: { start: { line: 6, character: 4 }, end: { line: 6, character: 20 } },
    source: 'greenlight',
    code: 'not-run',
    message: 'no test runs this line',
  };
  const failed = { ...notRun, range: { start: { line: 9, character: 0 }, end: { line: 9, character: 8 } }, code: 'test-failed' };
  assert.equal(isFixable(notRun), false);
  assert.equal(pickDiagnostic([notRun], { line: 6, character: 5 }), undefined);
  assert.equal(pickDiagnostic([notRun, failed], { line: 6, character: 5 }), failed);
});
