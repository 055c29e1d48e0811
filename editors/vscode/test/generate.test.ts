import { recorded, reset, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import { routeWorkCommands, vscodeWorkUi, WorkRunner } from '../src/generate';
import { ProgressTracker } from '../src/progress';
import { statusText } from '../src/progressText';
import { fakeClient, tick } from './fakeClient';

function setup() {
  reset();
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  tracker.initialize();
  const log: string[] = [];
  const output = { appendLine: (l: string) => log.push(l), show: () => undefined } as unknown as vscode.OutputChannel;
  const runner = new WorkRunner(fake.client, tracker, vscodeWorkUi(output), 'tok');
  const bar: string[] = [];
  tracker.onDidChange((work) => bar.push(statusText(work)?.text ?? '(idle)'));
  return { fake, tracker, runner, log, bar };
}

const args = [{ uri: 'file:///w/textutil.py', position: { line: 3, character: 0 } }];
const result = {
  status: 'passed',
  applied: true,
  file: '/w/textutil.py',
  target: { name: 'slugify', line: 4, end_line: 5, kind: 'stub' },
  summary: { rounds: 2, passed: 7, failed: 0 },
  error: null,
};

test('generate: own workDoneToken, rounds in the notification and status bar, outcome line', async () => {
  const { fake, runner, log, bar } = setup();
  const done = runner.run('greenlight.generate', args);
  const request = fake.sent[0]!;
  assert.equal(request.method, 'workspace/executeCommand');
  assert.deepEqual(request.params, { command: 'greenlight.generate', arguments: args, workDoneToken: 'tok-1' });
  assert.ok(request.token, 'the request is cancellable');
  assert.deepEqual(bar, ['$(sync~spin) Greenlight: generating…'], 'the status bar spins before the server\'s first word');

  fake.send('tok-1', { kind: 'begin', title: 'Generating slugify()', cancellable: true, message: 'round 1/3: asking the model', percentage: 0 });
  await tick();
  const ui = recorded.progress[0]!;
  assert.deepEqual(ui.options, { location: stub.ProgressLocation.Notification, title: 'Greenlight: Generating slugify()', cancellable: true });
  for (const message of ['round 1/3: writing… 312 tokens', 'round 1/3: running 7 tests', 'round 1/3: 5/7 passed', 'round 2/3: asking the model', 'round 2/3: 7/7 passed']) {
    fake.send('tok-1', { kind: 'report', message });
  }
  assert.deepEqual(ui.reports.map((r) => r.message), [
    'round 1/3: asking the model',
    'round 1/3: writing… 312 tokens',
    'round 1/3: running 7 tests',
    'round 1/3: 5/7 passed',
    'round 2/3: asking the model',
    'round 2/3: 7/7 passed',
  ]);
  assert.ok(bar.includes('$(sync~spin) slugify: round 1/3'));
  assert.equal(bar[bar.length - 1], '$(sync~spin) slugify: round 2/3');
  fake.send('tok-1', { kind: 'end', message: 'slugify: 7/7 tests passed in 2 rounds' });
  request.resolve(result);
  assert.deepEqual(await done, result, 'the command\'s result is the generate --json object');
  assert.equal(ui.done, true);
  assert.deepEqual(recorded.statusMessages, ['$(pass) slugify: 7/7 tests passed in 2 rounds']);
  assert.deepEqual(recorded.messages, [], 'no pop-up on success');
  assert.deepEqual(log, ['generation of slugify(): passed (7/7 tests, 2 rounds), applied']);
  assert.equal(fake.progress.get('tok-1')!.disposed, true);
  assert.equal(bar[bar.length - 1], '(idle)');
});

test('cancel from the notification: $/cancelRequest, -32800 is "cancelled; nothing applied", no pop-up', async () => {
  const { fake, runner, bar } = setup();
  const done = runner.run('greenlight.fix', [{ ...args[0], diagnostic: { message: 'x' } }]);
  const request = fake.sent[0]!;
  request.token!.onCancellationRequested(() => request.reject(new ResponseError(-32800, 'request cancelled')));
  fake.send('tok-1', { kind: 'begin', title: 'Fixing slugify()', cancellable: true, message: 'round 1/3: asking the model' });
  await tick();
  recorded.progress[0]!.cancel();
  assert.equal(request.token!.isCancellationRequested, true);
  assert.equal(await done, undefined);
  assert.ok(bar.includes('$(sync~spin) slugify: cancelling…'));
  assert.deepEqual(recorded.statusMessages, ['$(circle-slash) slugify: cancelled; nothing applied']);
  assert.deepEqual(recorded.messages, []);
  assert.deepEqual(fake.notifications, [], 'no workDoneProgress/cancel for a request the client cancels itself');
});

test('superseded or cancelled elsewhere before begin: still "cancelled", the status bar clears', async () => {
  const { fake, runner, tracker } = setup();
  const done = runner.run('greenlight.generate', args);
  fake.sent[0]!.reject(new ResponseError(-32800, 'superseded'));
  await done;
  assert.deepEqual(recorded.statusMessages, ['$(circle-slash) Greenlight: generation: cancelled; nothing applied']);
  assert.deepEqual(tracker.active(), []);
});

test('Greenlight: Cancel (cancelAll) cancels the running request', async () => {
  const { fake, runner, tracker } = setup();
  const done = runner.run('greenlight.generate', args);
  const request = fake.sent[0]!;
  request.token!.onCancellationRequested(() => request.reject(new ResponseError(-32800, 'cancelled')));
  assert.equal(tracker.cancelAll(), 1);
  await done;
  assert.deepEqual(recorded.statusMessages, ['$(circle-slash) Greenlight: generation: cancelled; nothing applied']);
});

test('no provider configured: the server\'s one message is the only pop-up', async () => {
  const { fake, runner, log } = setup();
  const done = runner.run('greenlight.generate', args);
  fake.sent[0]!.resolve({
    status: 'error',
    applied: false,
    target: null,
    error: 'no LLM provider is configured: set greenlight.provider, greenlight.baseUrl or an API key',
  });
  await done;
  assert.deepEqual(recorded.messages, [], 'the extension adds no message of its own');
  assert.deepEqual(recorded.statusMessages, ['$(error) Greenlight: no LLM provider is configured: set greenlight.provider, greenlight.baseUrl or an API key']);
  assert.match(log[0]!, /^generation: error: no LLM provider is configured/);
});

test('a failed request (not a result) is shown once, with the server\'s reason', async () => {
  const { fake, runner } = setup();
  const done = runner.run('greenlight.fix', args);
  fake.sent[0]!.reject(new ResponseError(-32602, "params[0].diagnostic: expected an object"));
  assert.equal(await done, undefined, 'never rejects (a CodeLens click would show VS Code\'s own error)');
  assert.deepEqual(recorded.messages.map((m) => [m.severity, m.message, m.items]), [
    ['error', 'Greenlight: fix failed: params[0].diagnostic: expected an object', ['Show Output']],
  ]);
  assert.deepEqual(recorded.statusMessages, ['$(error) Greenlight: fix failed']);
});

test('the server going away mid-run is not a pop-up (the client reports the crash)', async () => {
  const { fake, runner } = setup();
  const done = runner.run('greenlight.generate', args);
  fake.sent[0]!.reject(new ResponseError(-32097, 'Pending response rejected since connection got disposed'));
  await done;
  assert.deepEqual(recorded.messages, []);
});

test('two runs at once: separate tokens, both listed, each ends on its own', async () => {
  const { fake, runner, tracker, bar } = setup();
  const first = runner.run('greenlight.generate', args);
  const second = runner.run('greenlight.generate', [{ uri: 'file:///w/textutil.py', position: { line: 20, character: 0 } }]);
  assert.deepEqual(fake.sent.map((r) => (r.params as { workDoneToken: string }).workDoneToken), ['tok-1', 'tok-2']);
  fake.send('tok-2', { kind: 'begin', title: 'Generating title_case()', cancellable: true, message: 'round 1/3: asking the model' });
  assert.equal(bar[bar.length - 1], '$(sync~spin) title_case: round 1/3 (+1)');
  fake.sent[1]!.resolve({ ...result, target: { name: 'title_case' }, summary: { rounds: 1, passed: 2, failed: 0 } });
  await second;
  assert.equal(tracker.active().length, 1);
  fake.sent[0]!.resolve(result);
  await first;
  assert.deepEqual(recorded.statusMessages, ['$(pass) title_case: 2/2 tests passed in 1 round', '$(pass) slugify: 7/7 tests passed in 2 rounds']);
});

test('middleware: the server\'s generate/fix (CodeLens, code action) run through the runner; others pass', async () => {
  const { fake, runner } = setup();
  const passed: [string, unknown[]][] = [];
  const next = (command: string, a: unknown[]) => {
    passed.push([command, a]);
    return 'next';
  };
  const route = routeWorkCommands(() => runner);
  assert.equal(route('greenlight.runTests', args, next), 'next');
  assert.equal(route('greenlight.cancel', [], next), 'next');
  const lens = route('greenlight.generate', args, next) as Promise<unknown>;
  assert.deepEqual(fake.sent[0]!.params, { command: 'greenlight.generate', arguments: args, workDoneToken: 'tok-1' });
  fake.sent[0]!.resolve(result);
  assert.deepEqual(await lens, result);
  void route('greenlight.fix', [{ uri: 'u', position: { line: 0, character: 0 }, diagnostic: {} }], next);
  assert.equal((fake.sent[1]!.params as { command: string }).command, 'greenlight.fix');
  fake.sent[1]!.resolve(result);
  assert.deepEqual(passed, [['greenlight.runTests', args], ['greenlight.cancel', []]]);
  // No runner (server stopped): the client's own path.
  assert.equal(routeWorkCommands(() => undefined)('greenlight.generate', args, next), 'next');
});

test('middleware: a cancelled test run from a lens ends quietly; other failures still surface', async () => {
  const route = routeWorkCommands(() => undefined);
  const cancelled = Object.assign(new Error('Canceled'), { name: 'Canceled' });
  assert.equal(await route('greenlight.runTests', args, () => Promise.reject(cancelled)), undefined);
  assert.equal(await route('greenlight.runTests', args, () => Promise.reject(new ResponseError(-32800, 'cancelled'))), undefined);
  await assert.rejects(
    Promise.resolve(route('greenlight.runTests', args, () => Promise.reject(new ResponseError(-32603, 'internal error')))),
    /internal error/,
  );
  assert.deepEqual(await route('greenlight.runTests', args, () => Promise.resolve({ passed: 1 })), { passed: 1 });
});
