import { recorded, reset } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { vscodeWorkUi, WorkRunner } from '../src/generate';
import { ProgressTracker } from '../src/progress';
import { outcomeText } from '../src/progressText';
import { acceptArguments, normalizeText, parseProposal, proposalMessage, TestsDecision, TestsProposal } from '../src/testsProposal';
import { fakeClient, tick } from './fakeClient';

const args = [{ uri: 'file:///w/durations.py', position: { line: 2, character: 0 } }];
const testsUri = 'file:///w/tests/test_durations.py';
const proposedText = 'from durations import parse_duration\n\ndef test_hours():\n    assert parse_duration("1h30m") == 5400\n\ndef test_any():\n    assert True\n';
const proposal = {
  status: 'tests_proposed',
  applied: false,
  file: '/w/durations.py',
  target: { name: 'parse_duration', line: 3, end_line: 4, kind: 'stub' },
  tests: {
    uri: testsUri,
    file: '/w/tests/test_durations.py',
    exists: false,
    text: proposedText,
    count: 2,
    names: ['test_hours', 'test_any'],
    flagged: [{ name: 'test_any', line: 6, message: 'passes on the stub: it asserts nothing about parse_duration' }],
    error: null,
  },
  error: null,
};
const passed = {
  status: 'passed',
  applied: true,
  target: { name: 'parse_duration' },
  summary: { rounds: 1, passed: 2, failed: 0 },
  tests: { uri: testsUri, file: '/w/tests/test_durations.py', count: 2, new: true },
  error: null,
};

function setup(review?: (p: TestsProposal) => Promise<TestsDecision>) {
  reset();
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  tracker.initialize();
  const log: string[] = [];
  const output = { appendLine: (l: string) => log.push(l), show: () => undefined } as unknown as vscode.OutputChannel;
  const reviewed: TestsProposal[] = [];
  const reviewTests = review
    ? (p: TestsProposal) => {
        reviewed.push(p);
        return review(p);
      }
    : undefined;
  const runner = new WorkRunner(fake.client, tracker, vscodeWorkUi(output, reviewTests), 'tok');
  return { fake, runner, log, reviewed };
}

// Resolves once the runner has sent its n-th request (the accept is a second request).
async function sent(fake: ReturnType<typeof fakeClient>, n: number) {
  for (let i = 0; i < 50 && fake.sent.length < n; i++) await tick();
  assert.equal(fake.sent.length, n, `request ${n} was sent`);
  return fake.sent[n - 1]!;
}

test('parseProposal: the contract\'s fields; other results are not proposals; a broken one says why', () => {
  const p = parseProposal(proposal);
  assert.ok(p && typeof p === 'object');
  assert.equal(p.uri, testsUri);
  assert.equal(p.file, '/w/tests/test_durations.py');
  assert.equal(p.exists, false);
  assert.equal(p.text, proposedText);
  assert.equal(p.original, undefined);
  assert.equal(p.count, 2);
  assert.deepEqual(p.names, ['test_hours', 'test_any']);
  assert.deepEqual(p.flagged, [{ name: 'test_any', line: 6, message: 'passes on the stub: it asserts nothing about parse_duration' }]);
  assert.equal(p.error, undefined, 'error: null is no error');
  assert.equal(p.target, 'parse_duration');
  const existing = parseProposal({ ...proposal, tests: { ...proposal.tests, exists: true, original: 'import x\n', error: 'collection failed: SyntaxError' } });
  assert.ok(existing && typeof existing === 'object');
  assert.equal(existing.original, 'import x\n');
  assert.equal(existing.error, 'collection failed: SyntaxError');
  assert.equal(parseProposal(passed), undefined);
  assert.equal(parseProposal(undefined), undefined);
  assert.equal(parseProposal({ status: 'tests_proposed' }), 'the proposal has no "tests" object');
  assert.equal(parseProposal({ status: 'tests_proposed', tests: { uri: testsUri } }), 'tests.text: expected a string');
  assert.equal(parseProposal({ status: 'tests_proposed', tests: { text: '' } }), 'tests.uri: expected a non-empty string');
});

test('proposalMessage: count, file, new file, flagged tests and a proposal that does not run', () => {
  const p = parseProposal(proposal) as TestsProposal;
  const m = proposalMessage(p);
  assert.equal(m.warning, true);
  assert.equal(
    m.text,
    'parse_duration: 2 tests proposed from the comment for test_durations.py (new file). Nothing is written until you accept. ' +
      '1 test passes on the stub: test_any (line 6): passes on the stub: it asserts nothing about parse_duration.',
  );
  const clean = proposalMessage({ ...p, flagged: [], exists: true });
  assert.equal(clean.warning, false);
  assert.equal(clean.text, 'parse_duration: 2 tests proposed from the comment for test_durations.py. Nothing is written until you accept.');
  const broken = proposalMessage({ ...p, flagged: [], error: 'pytest could not collect it' });
  assert.equal(broken.warning, true);
  assert.match(broken.text, /The proposal does not run: pytest could not collect it$/);
});

test('acceptArguments: the same uri/position (and anything else) plus tests; CRLF from an editor becomes LF', () => {
  const extra = [{ ...args[0], rounds: 5 }];
  assert.deepEqual(acceptArguments(extra, testsUri, 'T'), [{ ...args[0], rounds: 5, tests: { uri: testsUri, text: 'T' } }]);
  assert.deepEqual(extra, [{ ...args[0], rounds: 5 }], 'the original arguments are not changed');
  assert.equal(normalizeText('a\r\nb\r\n'), 'a\nb\n');
});

test('outcome lines: a proposal wrote nothing; the accepted run names its new tests', () => {
  assert.deepEqual(outcomeText('generate', proposal, undefined), {
    text: '$(beaker) parse_duration: 2 tests proposed; nothing written yet',
    log: 'generation of parse_duration(): no tests found: 2 tests proposed for review; nothing written',
  });
  assert.equal(outcomeText('generate', passed, undefined).text, '$(pass) parse_duration: 2 new tests, 2/2 passed');
  assert.equal(outcomeText('generate', passed, 'parse_duration: 2 new tests, 2/2 passed').text, '$(pass) parse_duration: 2 new tests, 2/2 passed');
});

test('accept: the proposal is reviewed, then generate runs again with the accepted text as tests', async () => {
  const { fake, runner, reviewed, log } = setup((p) => Promise.resolve({ accept: true, text: p.text }));
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve(proposal);
  const second = await sent(fake, 2);
  assert.equal(reviewed.length, 1);
  assert.equal(reviewed[0]!.text, proposedText);
  assert.deepEqual(second.params, {
    command: 'greenlight.generate',
    arguments: [{ ...args[0], tests: { uri: testsUri, text: proposedText } }],
    workDoneToken: 'tok-2',
  });
  second.resolve(passed);
  assert.deepEqual(await done, passed, 'the result is the accepted run\'s');
  assert.deepEqual(recorded.statusMessages, [
    '$(beaker) parse_duration: 2 tests proposed; nothing written yet',
    '$(pass) parse_duration: 2 new tests, 2/2 passed',
  ]);
  assert.ok(log.includes('tests first for parse_duration(): accepted; generating against them'));
});

test('edit: what the user typed is what the second request carries', async () => {
  const edited = proposedText.replace('def test_any():\n    assert True\n', 'def test_seconds():\n    assert parse_duration("90s") == 90\n');
  const { fake, runner, log } = setup(() => Promise.resolve({ accept: true, text: edited }));
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve(proposal);
  const second = await sent(fake, 2);
  const tests = (second.params as { arguments: { tests: { text: string } }[] }).arguments[0]!.tests;
  assert.equal(tests.text, edited);
  assert.notEqual(tests.text, proposedText);
  second.resolve(passed);
  await done;
  assert.ok(log.includes('tests first for parse_duration(): accepted (edited); generating against them'));
});

test('cancel: nothing more is sent, the proposal is the result, the status bar says nothing was written', async () => {
  const { fake, runner } = setup(() => Promise.resolve({ accept: false }));
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve(proposal);
  assert.deepEqual(await done, proposal);
  await tick();
  assert.equal(fake.sent.length, 1, 'no second request');
  assert.equal(recorded.statusMessages[recorded.statusMessages.length - 1], '$(circle-slash) parse_duration: proposed tests cancelled; nothing written');
  assert.deepEqual(recorded.messages, []);
});

test('a server that proposes again although given tests is not asked again (no loop)', async () => {
  let reviews = 0;
  const { fake, runner } = setup((p) => {
    reviews++;
    return Promise.resolve({ accept: true, text: p.text });
  });
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve(proposal);
  (await sent(fake, 2)).resolve(proposal);
  assert.deepEqual(await done, proposal);
  assert.equal(reviews, 1);
  assert.equal(fake.sent.length, 2);
  assert.deepEqual(recorded.messages.map((m) => m.message), [
    'Greenlight: the server proposed tests again instead of using the accepted ones; nothing written',
  ]);
});

test('a malformed proposal is an error message, never a review; fix results are never reviewed', async () => {
  const { fake, runner, reviewed } = setup(() => Promise.resolve({ accept: true, text: 'x' }));
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve({ status: 'tests_proposed', applied: false });
  await done;
  assert.equal(reviewed.length, 0);
  assert.deepEqual(recorded.messages.map((m) => m.message), [
    'Greenlight: the server\'s test proposal cannot be shown: the proposal has no "tests" object',
  ]);
  const fix = runner.run('greenlight.fix', args);
  (await sent(fake, 2)).resolve(proposal);
  await fix;
  assert.equal(reviewed.length, 0);
  assert.equal(fake.sent.length, 2);
});

test('a preview that fails to open is reported; nothing is sent', async () => {
  const { fake, runner } = setup(() => Promise.reject(new Error('no editor')));
  const done = runner.run('greenlight.generate', args);
  (await sent(fake, 1)).resolve(proposal);
  await done;
  assert.equal(fake.sent.length, 1);
  assert.deepEqual(recorded.messages.map((m) => m.message), ['Greenlight: showing the proposed tests failed: no editor']);
});
