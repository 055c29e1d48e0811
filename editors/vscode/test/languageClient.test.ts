// What the extension relies on in vscode-languageclient 9 itself, exercised through the
// library's own feature classes (the ones LanguageClient registers), with the vscode stub:
// - the server's executeCommandProvider ids become VS Code commands, and our middleware sends
//   greenlight.generate / greenlight.fix from a CodeLens or code action through the WorkRunner;
// - workspace/codeLens/refresh is announced and honoured (the providers re-ask for lenses);
// - a lens's command and arguments reach VS Code unchanged, so clicking it runs the server's
//   command with {uri, position}.
import { recorded, reset, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { CodeLensFeature } from 'vscode-languageclient/lib/common/codeLens';
import { createConverter as createC2P } from 'vscode-languageclient/lib/common/codeConverter';
import { ExecuteCommandFeature } from 'vscode-languageclient/lib/common/executeCommand';
import { createConverter as createP2C } from 'vscode-languageclient/lib/common/protocolConverter';
import { registerCommands } from '../src/commands';
import type { ServerManager } from '../src/client';
import { routeWorkCommands, vscodeWorkUi, WorkRunner } from '../src/generate';
import { ProgressTracker } from '../src/progress';
import { fakeClient, tick } from './fakeClient';

const kServerCommands = ['greenlight.runTests', 'greenlight.generate', 'greenlight.fix', 'greenlight.cancel'];

function languageClient() {
  reset();
  for (const id of [...recorded.registered.keys()]) recorded.registered.delete(id);
  const fake = fakeClient();
  const tracker = new ProgressTracker(fake.client);
  tracker.initialize();
  const output = { appendLine: () => undefined, show: () => undefined } as unknown as vscode.OutputChannel;
  const runner = new WorkRunner(fake.client, tracker, vscodeWorkUi(output), 'tok');
  const handlers = new Map<string, (params: unknown) => unknown>();
  const client = {
    ...fake.client,
    middleware: { executeCommand: routeWorkCommands(() => runner) },
    clientOptions: {},
    protocol2CodeConverter: createP2C(undefined, false, false),
    code2ProtocolConverter: createC2P(undefined),
    onRequest(type: { method: string }, handler: (params: unknown) => unknown) {
      handlers.set(type.method, handler);
      return { dispose: () => handlers.delete(type.method) };
    },
    handleFailedRequest(_type: unknown, _token: unknown, error: unknown) {
      throw error;
    },
  };
  return { fake, client, handlers };
}

test('server commands are registered next to ours without a clash; generate/fix go through the runner', async () => {
  const { fake, client } = languageClient();
  registerCommands({} as ServerManager);
  const feature = new ExecuteCommandFeature(client as never);
  const capabilities: { workspace?: { executeCommand?: { dynamicRegistration?: boolean } } } = {};
  feature.fillClientCapabilities(capabilities as never);
  feature.initialize({ executeCommandProvider: { commands: kServerCommands } } as never);
  for (const id of kServerCommands) assert.ok(recorded.registered.has(id), `${id} not registered`);

  const lensArgs = { uri: 'file:///w/textutil.py', position: { line: 3, character: 0 } };
  const generated = recorded.registered.get('greenlight.generate')!(lensArgs) as Promise<unknown>;
  assert.deepEqual(fake.sent[0]!.params, { command: 'greenlight.generate', arguments: [lensArgs], workDoneToken: 'tok-1' });
  fake.sent[0]!.resolve({ status: 'passed', applied: true, target: { name: 'slugify' }, summary: { rounds: 1, passed: 3, failed: 0 } });
  await generated;
  assert.deepEqual(recorded.statusMessages, ['$(pass) slugify: 3/3 tests passed in 1 round']);

  void recorded.registered.get('greenlight.runTests')!(lensArgs);
  await tick();
  assert.deepEqual(fake.sent[1]!.params, { command: 'greenlight.runTests', arguments: [lensArgs] }, 'runTests takes the client\'s own path');
  feature.clear();
  assert.ok(!recorded.registered.has('greenlight.generate'));
});

test('CodeLens: refresh support is announced, a refresh request makes VS Code ask again, a lens click runs its command', async () => {
  const { fake, client, handlers } = languageClient();
  const commands = new ExecuteCommandFeature(client as never);
  commands.initialize({ executeCommandProvider: { commands: kServerCommands } } as never);
  const feature = new CodeLensFeature(client as never);
  const capabilities: { workspace?: { codeLens?: { refreshSupport?: boolean } } } = {};
  feature.fillClientCapabilities(capabilities as never);
  assert.equal(capabilities.workspace?.codeLens?.refreshSupport, true);
  feature.initialize({ codeLensProvider: { resolveProvider: false } } as never, [{ language: 'python', scheme: 'file' }]);
  const registered = stub.languages.codeLensProviders[stub.languages.codeLensProviders.length - 1]!;
  const provider = registered.provider as {
    onDidChangeCodeLenses: (l: () => void) => unknown;
    provideCodeLenses: (document: unknown, token: unknown) => Promise<{ command?: { title: string; command: string; arguments?: unknown[] } }[]>;
    resolveCodeLens?: unknown;
  };
  assert.equal(provider.resolveCodeLens, undefined, 'no resolve round trip when the server has none');

  let changes = 0;
  provider.onDidChangeCodeLenses(() => changes++);
  const refresh = handlers.get('workspace/codeLens/refresh');
  assert.ok(refresh, 'no workspace/codeLens/refresh handler');
  await refresh(undefined);
  assert.equal(changes, 1, 'the refresh request did not reach VS Code');

  const source = new stub.CancellationTokenSource();
  const document = { uri: { toString: () => 'file:///w/textutil.py' } };
  const lenses = provider.provideCodeLenses(document, source.token);
  const request = fake.sent[0]!;
  assert.equal(request.method, 'textDocument/codeLens');
  assert.deepEqual(request.params, { textDocument: { uri: 'file:///w/textutil.py' } });
  const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 0 } });
  request.resolve([
    { range: at(3), command: { title: '✨ Generate', command: 'greenlight.generate', arguments: [{ uri: 'file:///w/textutil.py', position: { line: 3, character: 0 } }] } },
    { range: at(9), command: { title: '✘ 1 failed', command: 'greenlight.runTests', arguments: [{ uri: 'file:///w/textutil.py', position: { line: 9, character: 0 } }] } },
  ]);
  const shown = await lenses;
  assert.deepEqual(shown.map((l) => l.command?.title), ['✨ Generate', '✘ 1 failed']);

  // VS Code runs a clicked lens's command with its arguments.
  const lens = shown[0]!.command!;
  void recorded.registered.get(lens.command)!(...(lens.arguments ?? []));
  const executed = fake.sent[1]!;
  assert.deepEqual(executed.params, {
    command: 'greenlight.generate',
    arguments: [{ uri: 'file:///w/textutil.py', position: { line: 3, character: 0 } }],
    workDoneToken: 'tok-1',
  });
  executed.resolve({ status: 'passed', applied: true, target: { name: 'slugify' }, summary: { rounds: 1, passed: 1, failed: 0 } });
  const failed = shown[1]!.command!;
  void recorded.registered.get(failed.command)!(...(failed.arguments ?? []));
  await tick();
  assert.deepEqual(fake.sent[2]!.params, { command: 'greenlight.runTests', arguments: [{ uri: 'file:///w/textutil.py', position: { line: 9, character: 0 } }] });
});
