// The extension's generate/fix flow over a real jsonrpc connection, against the scripted server
// (e2e/scriptedServer.ts): the WorkRunner and ProgressTracker of src/ (VS Code's UI stubbed by
// test/vscodeStub, which records the notifications, status bar and messages) drive the wire as
// vscode-languageclient would, so what is checked here is the real thing minus VS Code:
//   - the request carries our workDoneToken; the server's $/progress on it reaches the
//     notification and the status bar (the server never needs window/workDoneProgress/create);
//   - the notification's Cancel sends $/cancelRequest, the server's -32800 ends the run as
//     "cancelled; nothing applied"; Greenlight: Cancel (greenlight.cancel) does the same;
//   - "no provider": the server's one window/showMessage, no message of the extension's own;
//   - fix passes the diagnostic, `data` included, untouched.
//
//   node out/e2e/workFlow.js    exit 0 pass, 1 fail
import '../test/vscodeStub';
import { recorded, reset } from '../test/vscodeStub';
import { spawn } from 'child_process';
import * as path from 'path';
import type * as vscode from 'vscode';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { vscodeWorkUi, WorkRunner } from '../src/generate';
import { ProgressClient, ProgressTracker } from '../src/progress';

class Failure extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Failure(message);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}:\n  expected ${e}\n  got      ${a}`);
}

// Generous: the machine may be busy; nothing here measures time.
async function waitFor(cond: () => boolean, what: string, ms = 20000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Failure(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Log {
  commands: { command: string; arguments?: unknown[]; workDoneToken?: string }[];
  cancelRequests: number;
  createdTokens: unknown[];
  applyResults: unknown[];
}

async function main(): Promise<number> {
  const server = spawn(process.execPath, [path.join(__dirname, 'scriptedServer.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  const applyEdits: { label?: string; edit: { documentChanges: { textDocument: { version: number } }[] } }[] = [];
  const serverMessages: { type: number; message: string }[] = [];
  const messageRequests: { message: string; actions: { title: string }[] }[] = [];
  connection.onRequest('workspace/applyEdit', (params: (typeof applyEdits)[number]) => {
    applyEdits.push(params);
    return { applied: true };
  });
  connection.onNotification('window/showMessage', (params: (typeof serverMessages)[number]) => void serverMessages.push(params));
  connection.onRequest('window/showMessageRequest', (params: (typeof messageRequests)[number]) => {
    messageRequests.push(params);
    return null;
  });
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { window: { workDoneProgress: true } } });
    void connection.sendNotification('initialized', {});
    const uri = (name: string) => `file:///w/${name}`;
    for (const name of ['pass.py', 'fail.py', 'slow.py', 'noprovider.py']) {
      void connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(name), languageId: 'python', version: 4, text: '# slugify\n' } });
    }

    const tracker = new ProgressTracker(connection as unknown as ProgressClient);
    tracker.initialize();
    const logged: string[] = [];
    const output = { appendLine: (l: string) => logged.push(l), show: () => undefined } as unknown as vscode.OutputChannel;
    const runner = new WorkRunner(connection, tracker, vscodeWorkUi(output), 'e2e');
    const serverLog = () => connection.sendRequest('scripted/log') as Promise<Log>;
    const at = (name: string) => ({ uri: uri(name), position: { line: 3, character: 0 } });

    // 1. generate that passes in two rounds.
    reset();
    const passed = (await runner.run('greenlight.generate', [at('pass.py')])) as { status: string; applied: boolean };
    same([passed.status, passed.applied], ['passed', true], 'generate result');
    let log = await serverLog();
    same(log.commands[0], { command: 'greenlight.generate', arguments: [at('pass.py')], workDoneToken: 'e2e-1' }, 'executeCommand params');
    same(log.createdTokens, [], 'tokens the server had to create');
    same(applyEdits.map((e) => [e.label, e.edit.documentChanges[0]!.textDocument.version]), [['slugify: 3/3 tests passed in 2 rounds', 4]], 'applyEdit');
    const ui = recorded.progress[0];
    check(ui, 'no progress notification was shown');
    same(ui.options, { location: 15, title: 'Greenlight: Generating slugify()', cancellable: true }, 'notification');
    same(ui.reports.map((r) => r.message), [
      'round 1/2: asking the model',
      'round 1/2: running 3 tests',
      'round 1/2: 1/3 passed',
      'round 2/2: asking the model',
      'round 2/2: 3/3 passed',
    ], 'notification messages');
    check(ui.done, 'the notification was not closed');
    same(recorded.statusMessages, ['$(pass) slugify: 3/3 tests passed in 2 rounds'], 'status bar outcome');
    same(recorded.messages, [], 'extension messages');
    console.log('generate: workDoneToken e2e-1, 5 reports in the notification, one versioned applyEdit, "$(pass) slugify: 3/3 tests passed in 2 rounds"');

    // 2. fix that fails: the server asks what next; the extension adds nothing.
    reset();
    const diagnostic = {
      range: { start: { line: 9, character: 4 }, end: { line: 9, character: 30 } },
      severity: 1,
      code: 'test-failed',
      source: 'greenlight',
      message: "assert slugify('A B') == 'a-b'",
      data: { test: 'test_basic', status: 'failed', expected: "'a-b'", actual: "'A B'", frames: [{ file: 'textutil.py', line: 4 }] },
    };
    const fixArgs = { ...at('fail.py'), diagnostic };
    const failed = (await runner.run('greenlight.fix', [fixArgs])) as { status: string };
    same(failed.status, 'failed', 'fix result');
    log = await serverLog();
    same(log.commands[1]!.arguments, [fixArgs], 'fix arguments (diagnostic with data, untouched)');
    same(recorded.statusMessages, ['$(error) slugify: no candidate passed (best 2/3)'], 'status bar outcome');
    same(messageRequests.map((m) => m.actions.map((a) => a.title)), [['Show best attempt', 'Retry with more rounds']], 'the server\'s question');
    same(recorded.messages, [], 'extension messages');
    console.log('fix: diagnostic.data arrives untouched; failure: the server\'s showMessageRequest, "$(error) slugify: no candidate passed (best 2/3)"');

    // 3. cancel from the notification.
    reset();
    const slow = runner.run('greenlight.generate', [at('slow.py')]);
    await waitFor(() => recorded.progress[0]?.reports.some((r) => r.message === 'round 1/2: asking the model') === true, 'the slow generation\'s notification');
    recorded.progress[0]!.cancel();
    same(await slow, undefined, 'cancelled run result');
    log = await serverLog();
    same(log.cancelRequests, 1, '$/cancelRequest sent');
    same(recorded.statusMessages, ['$(circle-slash) slugify: cancelled; nothing applied'], 'status bar outcome');
    same(recorded.messages, [], 'extension messages');
    same(tracker.active(), [], 'work left in the status bar');
    console.log('cancel (notification): $/cancelRequest, -32800, "$(circle-slash) slugify: cancelled; nothing applied"');

    // 4. Greenlight: Cancel (the server's greenlight.cancel) while a generation runs.
    reset();
    const slow2 = runner.run('greenlight.generate', [at('slow.py')]);
    await waitFor(() => recorded.progress.length > 0, 'the second slow generation');
    same(await connection.sendRequest('workspace/executeCommand', { command: 'greenlight.cancel', arguments: [] }), { cancelled: 1 }, 'greenlight.cancel');
    await slow2;
    same(recorded.statusMessages, ['$(circle-slash) slugify: cancelled; nothing applied'], 'status bar outcome');
    console.log('cancel (greenlight.cancel): the running generation answers -32800');

    // 5. no provider: one message, the server's.
    reset();
    const before = serverMessages.length;
    const none = (await runner.run('greenlight.generate', [at('noprovider.py')])) as { status: string };
    same(none.status, 'error', 'no-provider result');
    await waitFor(() => serverMessages.length > before, 'the server\'s showMessage');
    same(serverMessages.length - before, 1, 'server messages');
    same(recorded.messages, [], 'extension messages');
    same(recorded.progress, [], 'notifications');
    check(recorded.statusMessages[0]?.startsWith('$(error) Greenlight: no LLM provider is configured'), `status bar: ${recorded.statusMessages[0]}`);
    console.log('no provider: exactly one message (the server\'s), none from the extension');

    await connection.sendRequest('shutdown');
    void connection.sendNotification('exit');
    return 0;
  } finally {
    connection.dispose();
    if (server.exitCode === null) server.kill('SIGKILL');
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`FAIL: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
