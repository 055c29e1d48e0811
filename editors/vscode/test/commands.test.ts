// The palette commands against a fake server manager: what each one sends, with which
// arguments, and what the user is told when it cannot run.
import { recorded, reset, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { ServerManager } from '../src/client';
import { kCommandIds, registerCommands } from '../src/commands';
import { kTestingCommands } from '../src/testing';
import { kTestsCommands } from '../src/testsPreview';
import { vscodeDir } from './paths';

interface Sent {
  method: string;
  params: unknown;
}

const uri = { toString: () => 'file:///w/textutil.py', fsPath: '/w/textutil.py' };

function editor(line: number, character: number, languageId = 'python') {
  return {
    document: {
      languageId,
      uri,
      lineAt: (l: number) => ({ range: { start: { line: l, character: 0 }, end: { line: l, character: 40 } } }),
    },
    selection: { active: { line, character }, isEmpty: true },
  };
}

function setup(opts: { running?: boolean; codeActions?: unknown[]; cancelled?: number } = {}) {
  reset();
  for (const id of [...recorded.registered.keys()]) recorded.registered.delete(id);
  const sent: Sent[] = [];
  const runs: [string, unknown[]][] = [];
  let cancelAll = 0;
  const client = {
    code2ProtocolConverter: {
      asUri: (u: { toString(): string }) => u.toString(),
      asPosition: (p: { line: number; character: number }) => ({ line: p.line, character: p.character }),
      asRange: (r: { start: unknown; end: unknown }) => ({ start: r.start, end: r.end }),
      asTextDocumentIdentifier: (d: { uri: { toString(): string } }) => ({ uri: d.uri.toString() }),
      // Stands for vscode-languageclient's conversion back to the published diagnostic.
      asDiagnostic: (d: { protocol: unknown }) => d.protocol,
    },
    sendRequest(type: { method: string }, params: unknown) {
      sent.push({ method: type.method, params });
      if (type.method === 'textDocument/codeAction') return Promise.resolve(opts.codeActions ?? []);
      if (type.method === 'workspace/executeCommand') {
        const command = (params as { command: string }).command;
        return Promise.resolve(command === 'greenlight.cancel' ? { cancelled: opts.cancelled ?? 0 } : null);
      }
      return Promise.reject(new Error(`unexpected ${type.method}`));
    },
  };
  const running = opts.running ?? true;
  const manager = {
    languageClient: running ? client : undefined,
    workRunner: running
      ? {
          run: (command: string, args: unknown[]) => {
            runs.push([command, args]);
            return Promise.resolve({ status: 'passed' });
          },
        }
      : undefined,
    progressTracker: { cancelAll: () => cancelAll },
    output: { show: () => undefined, appendLine: () => undefined },
    restart: () => Promise.resolve(),
  };
  const disposables = registerCommands(manager as unknown as ServerManager);
  const run = (id: string) => recorded.registered.get(id)!() as Promise<void>;
  return { sent, runs, run, disposables, setCancelAll: (n: number) => (cancelAll = n) };
}

test('the contributed commands are exactly the registered ones', () => {
  const { disposables } = setup();
  const manifest = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package.json'), 'utf8'));
  // The Testing view's own two (its context menu's Generate / Fix) are registered by testing.ts,
  // the proposed tests' Accept / Cancel by testsPreview.ts.
  const testing: string[] = [...Object.values(kTestingCommands), ...Object.values(kTestsCommands)];
  const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command).filter((c) => !testing.includes(c)).sort();
  assert.deepEqual(
    (manifest.contributes.commands as { command: string }[]).map((c) => c.command).filter((c) => testing.includes(c)).sort(),
    [...testing].sort(),
  );
  assert.deepEqual([...recorded.registered.keys()].sort(), contributed);
  assert.deepEqual(Object.values(kCommandIds).sort(), contributed);
  for (const d of disposables) d.dispose();
  assert.equal(recorded.registered.size, 0);
});

test('Generate from Comment: asks for the generate action on the cursor line, runs its command', async () => {
  const action = {
    title: 'Generate slugify() from comment, verified by tests',
    kind: 'refactor.rewrite.greenlight',
    command: { title: 'Generate', command: 'greenlight.generate', arguments: [{ uri: 'file:///w/textutil.py', position: { line: 3, character: 0 } }] },
  };
  const { sent, runs, run } = setup({ codeActions: [{ title: 'Run nearby tests in sandbox', kind: 'source.greenlight.runTests' }, action] });
  stub.window.setActiveEditor(editor(3, 7));
  await run('greenlight.generateFromComment');
  assert.deepEqual(sent, [
    {
      method: 'textDocument/codeAction',
      params: {
        textDocument: { uri: 'file:///w/textutil.py' },
        range: { start: { line: 3, character: 0 }, end: { line: 3, character: 40 } },
        context: { diagnostics: [], only: ['refactor.rewrite.greenlight'] },
      },
    },
  ]);
  assert.deepEqual(runs, [['greenlight.generate', action.command.arguments]]);
  assert.deepEqual(recorded.messages, []);
});

test('Generate from Comment: two comments in range ask which; nothing there says how to use it', async () => {
  const mk = (name: string) => ({
    title: `Generate ${name}() from comment, verified by tests`,
    kind: 'refactor.rewrite.greenlight',
    command: { title: 'g', command: 'greenlight.generate', arguments: [{ name }] },
  });
  const two = setup({ codeActions: [mk('a'), mk('b')] });
  stub.window.setActiveEditor(editor(3, 0));
  stub.window.quickPickAnswer = undefined;
  await two.run('greenlight.generateFromComment');
  assert.equal(recorded.quickPicks.length, 1);
  assert.deepEqual(two.runs, [], 'dismissing the pick runs nothing');

  const none = setup({ codeActions: [] });
  stub.window.setActiveEditor(editor(9, 0));
  await none.run('greenlight.generateFromComment');
  assert.deepEqual(none.runs, []);
  assert.equal(recorded.messages.length, 1);
  assert.match(recorded.messages[0]!.message, /^Greenlight: nothing to generate here\. Put the cursor on a comment/);
});

test('Fix Failing Test: the greenlight diagnostic nearest the cursor, as published', async () => {
  const { runs, run } = setup();
  const protocol = { range: { start: { line: 9, character: 4 }, end: { line: 9, character: 30 } }, code: 'test-failed', data: { test: 'test_basic' } };
  stub.languages.setDiagnostics(uri, [
    { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 9 } }, source: 'flake8', code: 'E501', protocol: 'lint' },
    { range: { start: { line: 9, character: 4 }, end: { line: 9, character: 30 } }, source: 'greenlight', code: 'test-failed', protocol },
  ]);
  stub.window.setActiveEditor(editor(2, 0));
  await run('greenlight.fixFailingTest');
  assert.deepEqual(runs, [['greenlight.fix', [{ uri: 'file:///w/textutil.py', position: { line: 9, character: 4 }, diagnostic: protocol }]]]);

  const empty = setup();
  stub.window.setActiveEditor(editor(2, 0));
  await empty.run('greenlight.fixFailingTest');
  assert.deepEqual(empty.runs, []);
  assert.match(recorded.messages[0]!.message, /^Greenlight: no failing test in this file to fix\. Run the tests first \(Greenlight: Run Nearby Tests\)\./);
});

test('Run Nearby Tests: greenlight.runTests with {uri, position}', async () => {
  const { sent, run } = setup();
  stub.window.setActiveEditor(editor(5, 2));
  await run('greenlight.runNearbyTests');
  assert.deepEqual(sent, [
    { method: 'workspace/executeCommand', params: { command: 'greenlight.runTests', arguments: [{ uri: 'file:///w/textutil.py', position: { line: 5, character: 2 } }] } },
  ]);
});

test('Cancel: greenlight.cancel for everything, local work too; says how much', async () => {
  const s = setup({ cancelled: 2 });
  await s.run('greenlight.cancelRun');
  assert.deepEqual(s.sent, [{ method: 'workspace/executeCommand', params: { command: 'greenlight.cancel', arguments: [] } }]);
  assert.deepEqual(recorded.statusMessages, ['$(circle-slash) Greenlight: cancelled 2 tasks']);
  const idle = setup({ cancelled: 0 });
  await idle.run('greenlight.cancelRun');
  assert.deepEqual(recorded.statusMessages, ['Greenlight: nothing to cancel']);
  const local = setup({ running: false });
  local.setCancelAll(1);
  await local.run('greenlight.cancelRun');
  assert.deepEqual(recorded.statusMessages, ['$(circle-slash) Greenlight: cancelled 1 task']);
});

test('wrong editor or no server: one clear message, nothing sent', async () => {
  const other = setup();
  stub.window.setActiveEditor(editor(0, 0, 'markdown'));
  await other.run('greenlight.generateFromComment');
  assert.deepEqual(other.sent, []);
  assert.equal(recorded.messages[0]!.message, 'Greenlight: open a Python, JavaScript or C++ file first.');

  const stopped = setup({ running: false });
  stub.window.setActiveEditor(editor(0, 0));
  stub.window.messageAnswer = 'Restart Server';
  await stopped.run('greenlight.fixFailingTest');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(recorded.messages.map((m) => [m.severity, m.message, m.items]), [
    ['error', 'Greenlight: the server is not running.', ['Restart Server', 'Show Output']],
  ]);
  assert.deepEqual(recorded.executed.filter((e) => e.command !== 'setContext'), [{ command: 'greenlight.restartServer', args: [] }]);
});
