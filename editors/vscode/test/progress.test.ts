import { recorded, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BaseLanguageClient } from 'vscode-languageclient/node';
import { ActiveWork, ProgressTracker } from '../src/progress';

type Handler = (value: unknown) => void;

function fakeClient() {
  const requests = new Map<string, Handler>();
  const progress = new Map<unknown, { handler: Handler; disposed: boolean }>();
  const notifications: { method: string; params: unknown }[] = [];
  const client = {
    onRequest(type: { method: string }, handler: Handler) {
      requests.set(type.method, handler);
      return { dispose: () => requests.delete(type.method) };
    },
    onProgress(_type: unknown, token: unknown, handler: Handler) {
      if (progress.has(token) && !progress.get(token)!.disposed) throw new Error(`token ${String(token)} registered twice`);
      const entry = { handler, disposed: false };
      progress.set(token, entry);
      return { dispose: () => (entry.disposed = true) };
    },
    sendNotification(type: { method: string }, params: unknown) {
      notifications.push({ method: type.method, params });
      return Promise.resolve();
    },
  };
  return { client: client as unknown as BaseLanguageClient, requests, progress, notifications };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('progress: create → begin/report/end drives a cancellable notification and listeners', async () => {
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
  const send = fake.progress.get('run-1')!.handler;
  const before = recorded.progress.length;
  send({ kind: 'begin', title: 'Running tests', cancellable: true, percentage: 0 });
  await tick();
  const ui = recorded.progress[before]!;
  assert.deepEqual(ui.options, { location: stub.ProgressLocation.Notification, title: 'greenlight: Running tests', cancellable: true });
  send({ kind: 'report', message: 'test_add', percentage: 50 });
  send({ kind: 'report', percentage: 80 });
  assert.deepEqual(ui.reports.map((r) => r.increment), [0, 50, 30]);
  assert.equal(tracker.active()[0]!.message, 'test_add');
  assert.equal(tracker.active()[0]!.percentage, 80);

  assert.equal(tracker.cancelAll(), 1);
  ui.cancel();
  assert.deepEqual(fake.notifications, [
    { method: 'window/workDoneProgress/cancel', params: { token: 'run-1' } },
    { method: 'window/workDoneProgress/cancel', params: { token: 'run-1' } },
  ]);

  send({ kind: 'end', message: '1 passed, 0 failed' });
  await tick();
  assert.equal(ui.done, true, 'the notification was not closed');
  assert.deepEqual(tracker.active(), []);
  assert.equal(fake.progress.get('run-1')!.disposed, true, 'the $/progress handler was not released');
  assert.ok(recorded.statusMessages.includes('greenlight: Running tests: 1 passed, 0 failed'));
  assert.deepEqual(seen[seen.length - 1], []);
  assert.equal(seen[0]![0]!.title, 'Running tests');

  // A token can be reused after it ended (the jsonrpc layer allows one handler per token).
  create({ token: 'run-1' });
  fake.progress.get('run-1')!.handler({ kind: 'begin', title: 'Again', cancellable: false });
  await tick();
  assert.equal(recorded.progress[recorded.progress.length - 1]!.options.location, stub.ProgressLocation.Window);
  assert.equal(tracker.cancelAll(), 0, 'non-cancellable work is not cancelled');
  tracker.clear();
  await tick();
  assert.deepEqual(tracker.active(), []);
  tracker.dispose();
});
