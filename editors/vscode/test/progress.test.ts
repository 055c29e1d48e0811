import { recorded, reset, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ActiveWork, ProgressTracker } from '../src/progress';
import { fakeClient, tick } from './fakeClient';

test('server progress: create → begin/report/end drives a cancellable notification and listeners', async () => {
  reset();
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  const capabilities: { window?: { workDoneProgress?: boolean } } = {};
  tracker.fillClientCapabilities(capabilities as never);
  assert.equal(capabilities.window?.workDoneProgress, true);
  tracker.initialize();
  const create = fake.requests.get('window/workDoneProgress/create');
  assert.ok(create, 'no window/workDoneProgress/create handler');

  const seen: (readonly ActiveWork[])[] = [];
  tracker.onDidChange((work) => seen.push(work.map((w) => ({ ...w }))));
  create({ token: 'run-1' });
  assert.deepEqual(tracker.active(), [], 'created but not begun: not listed');
  fake.send('run-1', { kind: 'begin', title: 'Running tests', cancellable: true, percentage: 0 });
  await tick();
  const ui = recorded.progress[0]!;
  assert.deepEqual(ui.options, { location: stub.ProgressLocation.Notification, title: 'Greenlight: Running tests', cancellable: true });
  fake.send('run-1', { kind: 'report', message: 'test_add', percentage: 50 });
  fake.send('run-1', { kind: 'report', percentage: 80 });
  assert.deepEqual(ui.reports.map((r) => r.increment), [0, 50, 30]);
  assert.equal(tracker.active()[0]!.message, 'test_add');
  assert.equal(tracker.active()[0]!.percentage, 80);
  assert.equal(tracker.active()[0]!.origin, 'server');

  assert.equal(tracker.cancelAll(), 1);
  assert.equal(tracker.active()[0]!.cancelling, true);
  ui.cancel();
  assert.equal(tracker.cancelAll(), 0, 'work already cancelling is not asked twice');
  assert.deepEqual(fake.notifications, [{ method: 'window/workDoneProgress/cancel', params: { token: 'run-1' } }]);

  fake.send('run-1', { kind: 'end', message: '1 passed, 0 failed' });
  await tick();
  assert.equal(ui.done, true, 'the notification was not closed');
  assert.deepEqual(tracker.active(), []);
  assert.equal(fake.progress.get('run-1')!.disposed, true, 'the $/progress handler was not released');
  assert.deepEqual(recorded.statusMessages, ['$(beaker) Greenlight: Running tests: 1 passed, 0 failed']);
  assert.deepEqual(seen[seen.length - 1], []);
  assert.equal(seen[0]![0]!.title, 'Running tests');

  // A token can be reused after it ended (the jsonrpc layer allows one handler per token).
  create({ token: 'run-1' });
  fake.send('run-1', { kind: 'begin', title: 'Again', cancellable: false });
  await tick();
  assert.equal(recorded.progress[recorded.progress.length - 1]!.options.location, stub.ProgressLocation.Window);
  assert.equal(tracker.cancelAll(), 0, 'non-cancellable work is not cancelled');
  tracker.clear();
  await tick();
  assert.deepEqual(tracker.active(), []);
  tracker.dispose();
});

test('server progress: a "Retry with more rounds" generation ends with its own summary', async () => {
  reset();
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  tracker.initialize();
  fake.requests.get('window/workDoneProgress/create')!({ token: 7 });
  fake.send(7, { kind: 'begin', title: 'Generating slugify()', cancellable: true, message: 'round 1/6: asking the model' });
  fake.send(7, { kind: 'end', message: 'slugify: 7/7 tests passed in 4 rounds' });
  await tick();
  assert.deepEqual(recorded.statusMessages, ['$(beaker) slugify: 7/7 tests passed in 4 rounds']);
  tracker.dispose();
});

test('client progress: listed before begin, cancel calls back, the caller reports the end', async () => {
  reset();
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  tracker.initialize();
  let cancelled = 0;
  const work = tracker.trackClient('mine-1', 'Generating', () => cancelled++);
  assert.throws(() => tracker.trackClient('mine-1', 'Generating', () => undefined), /already in use/);
  assert.deepEqual(
    tracker.active().map((w) => [w.title, w.started, w.cancellable, w.origin]),
    [['Generating', false, true, 'client']],
  );
  assert.equal(recorded.progress.length, 0, 'no notification before the server says what it does');

  fake.send('mine-1', { kind: 'begin', title: 'Generating slugify()', cancellable: true, message: 'round 1/3: asking the model', percentage: 0 });
  await tick();
  assert.equal(work.title, 'Generating slugify()');
  const ui = recorded.progress[0]!;
  assert.equal(ui.options.title, 'Greenlight: Generating slugify()');
  assert.equal(ui.options.location, stub.ProgressLocation.Notification);
  assert.deepEqual(ui.reports[0], { message: 'round 1/3: asking the model', increment: 0 });

  ui.cancel();
  assert.equal(cancelled, 1, 'the notification\'s Cancel cancels the request');
  assert.deepEqual(fake.notifications, [], 'client work is cancelled through its request, not workDoneProgress/cancel');
  assert.equal(tracker.cancelAll(), 0);

  fake.send('mine-1', { kind: 'end', message: 'slugify: no candidate passed (best 5/7)' });
  await tick();
  assert.equal(ui.done, true);
  assert.equal(work.endMessage, 'slugify: no candidate passed (best 5/7)');
  assert.deepEqual(recorded.statusMessages, [], 'the runner, which has the result, reports the outcome');
  work.dispose();
  work.dispose();
  assert.deepEqual(tracker.active(), []);

  // Disposing before any progress releases the token too.
  const quiet = tracker.trackClient('mine-2', 'Fixing', () => undefined);
  quiet.dispose();
  assert.equal(fake.progress.get('mine-2')!.disposed, true);
  assert.equal(quiet.endMessage, undefined);
  tracker.dispose();
});
