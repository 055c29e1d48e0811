// The wire contract between this extension and `greenlight lsp`, checked without VS Code:
// spawns the server the way src/client.ts does (binary found by serverPath.ts, `lsp` argument,
// settings from settings.ts as initializationOptions and as the workspace/configuration answer),
// offers what vscode-languageclient 9 offers where it matters (utf-16 only: the client throws on
// any other positionEncoding), and checks what the extension relies on.
//
//   node out/e2e/serverContract.js /path/to/greenlight [--no-codelens-required]
// (the second for tests/editors/fake, a scripted stand-in for the editor plugins that models
// commands and code actions but not CodeLens)
// Exit 0 pass, 1 fail.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { defaultHost, resolveServerPath } from '../src/serverPath';
import { answerConfiguration, serverSettings, validateSettings } from '../src/settings';

class Failure extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Failure(message);
}

// Bounds scale like the C++ tests' (tests/common/TestTime.h): GL_TEST_TIME_SCALE is the build's
// factor (4 under sanitizers, where the server under test is the ASan build), set by
// tests/editors/CMakeLists.txt; GREENLIGHT_TEST_TIME_SCALE is a further factor for a slow machine.
const timeScale = ((): number => {
  const build = Number(process.env.GL_TEST_TIME_SCALE);
  const extra = Number(process.env.GREENLIGHT_TEST_TIME_SCALE);
  return (build > 0 ? build : 1) * (extra >= 1 ? extra : 1);
})();

function scaled(ms: number): number {
  return Math.floor(ms * timeScale);
}

function withTimeout<T>(promise: Promise<T>, bound: number, what: string): Promise<T> {
  const ms = scaled(bound);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Failure(`timed out after ${ms} ms waiting for ${what}`)), ms);
    promise.then(
      (v) => { clearTimeout(timer); resolve(v); },
      (e) => { clearTimeout(timer); reject(e); },
    );
  });
}

async function waitFor(cond: () => boolean, bound: number, what: string): Promise<void> {
  const ms = scaled(bound);
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Failure(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Capabilities {
  positionEncoding?: string;
  codeLensProvider?: boolean | { resolveProvider?: boolean };
  textDocumentSync?: number | { change?: number };
  codeActionProvider?: boolean | { resolveProvider?: boolean; codeActionKinds?: string[] };
  executeCommandProvider?: { commands?: string[] };
}
interface CodeAction {
  title: string;
  kind?: string;
  command?: { command: string; arguments?: unknown[] };
  edit?: unknown;
}

async function main(): Promise<number> {
  const requested = process.argv[2];
  check(requested, 'usage: serverContract.js /path/to/greenlight');
  const resolution = resolveServerPath(requested, defaultHost([], true));
  check(resolution.ok, `serverPath.ts cannot use ${requested}: ${resolution.ok ? '' : resolution.message}`);

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'greenlight-vscode-e2e-'));
  let child: ChildProcess | undefined;
  let connection: MessageConnection | undefined;
  try {
    fs.writeFileSync(path.join(workspace, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    fs.writeFileSync(path.join(workspace, 'test_calc.py'), 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n');

    const settingsValues: Record<string, unknown> = { 'sandbox.timeLimitSeconds': 7, 'refine.maxRounds': 2 };
    const settings = validateSettings({ inspect: (key) => (key in settingsValues ? { globalValue: settingsValues[key] } : {}) });
    check(settings.problems.length === 0, `settings problems: ${settings.problems.join('; ')}`);

    const proc = spawn(resolution.path, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child = proc;
    let stderr = '';
    let exitCode: number | null | undefined;
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // Writing to a server that already exited fails with EPIPE, both as a stream error and as a
    // rejected write inside vscode-jsonrpc; the exit itself is what this test reports.
    proc.stdin!.on('error', () => undefined);
    process.on('unhandledRejection', (e: unknown) => {
      if ((e as { code?: string } | undefined)?.code !== 'EPIPE') throw e;
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => { exitCode = code; resolve(code); }));
    const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    connection = conn;
    conn.onError(() => undefined);
    let pulls = 0;
    const answered: unknown[] = [];
    conn.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
      pulls++;
      const answer = answerConfiguration(params.items.map((i) => i.section), settings, []);
      answered.push(answer);
      return answer;
    });
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('client/registerCapability', () => null);
    conn.onNotification(() => undefined);
    conn.listen();

    const rootUri = pathToFileURL(workspace).toString();
    const init = conn.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'greenlight-e2e (vscode-languageclient 9 capabilities)' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'ws' }],
      initializationOptions: serverSettings(settings),
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true, showDocument: { support: true },
                  showMessage: { messageActionItem: { additionalPropertiesSupport: true } } },
        workspace: { configuration: true, applyEdit: true,
                     workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } },
                     codeLens: { refreshSupport: true },
                     didChangeConfiguration: { dynamicRegistration: true }, executeCommand: { dynamicRegistration: true } },
        textDocument: {
          synchronization: { didSave: true },
          codeAction: { dataSupport: true, resolveSupport: { properties: ['edit'] }, isPreferredSupport: true,
                        codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.rewrite', 'source'] } } },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
          codeLens: { dynamicRegistration: true },
        },
      },
    }) as Promise<{ capabilities: Capabilities }>;
    // A server that exits at once can make the write fail (EPIPE) before 'exit' is seen: treat a
    // failed initialize like an exit, after giving the exit a moment to arrive.
    const outcome = await withTimeout(
      Promise.race([
        init.then((result) => ({ result }), (error: unknown) => ({ error })),
        exited.then(() => ({ exited: true })),
      ]),
      10000,
      'the initialize response',
    );
    if ('error' in outcome) {
      await Promise.race([exited, new Promise((r) => setTimeout(r, scaled(2000)))]);
      if (exitCode === undefined) throw new Failure(`initialize failed: ${String(outcome.error)}; stderr: ${stderr}`);
    }
    const first = 'result' in outcome ? outcome.result : undefined;
    if (first === undefined) {
      throw new Failure(`${resolution.path} lsp exited with ${String(exitCode)} before answering initialize; stderr: ${stderr}`);
    }
    const caps = first.capabilities;

    // Every gap is listed at once, so a partial server shows everything it still lacks.
    const gaps: string[] = [];
    const want = (cond: boolean, message: string) => void (cond || gaps.push(message));
    // vscode-languageclient 9 throws "Unsupported position encoding" for anything but utf-16.
    want(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16',
      `positionEncoding ${caps.positionEncoding} for a client that offered only utf-16`);
    const change = typeof caps.textDocumentSync === 'object' ? caps.textDocumentSync.change : caps.textDocumentSync;
    want(change === 2, `textDocumentSync.change ${String(change)}, expected 2 (incremental)`);
    const cap = caps.codeActionProvider;
    want(typeof cap === 'object' && cap.resolveProvider === true, `codeActionProvider ${JSON.stringify(cap)}: resolveProvider must be true`);
    const kinds = typeof cap === 'object' ? cap.codeActionKinds ?? [] : [];
    want(kinds.includes('source.greenlight.runTests'), `codeActionKinds lacks source.greenlight.runTests (has ${JSON.stringify(kinds)})`);
    const commands = caps.executeCommandProvider?.commands ?? [];
    for (const c of ['greenlight.runTests', 'greenlight.cancel']) {
      want(commands.includes(c), `executeCommandProvider lacks ${c} (has ${JSON.stringify(commands)})`);
    }
    // Generate/fix/CodeLens (lsp-generate-contract) come as one piece with the generation
    // pipeline: a server offers all of it or none of it. The extension's palette commands,
    // keybindings and lenses need every part: a command without its code action kind is not in
    // the light bulb, a lens without the command cannot be clicked.
    const offersLenses = caps.codeLensProvider !== undefined && caps.codeLensProvider !== false;
    const generationParts: [string, boolean][] = [
      ['command greenlight.generate', commands.includes('greenlight.generate')],
      ['command greenlight.fix', commands.includes('greenlight.fix')],
      ['code action kind refactor.rewrite.greenlight', kinds.includes('refactor.rewrite.greenlight')],
      ['code action kind quickfix', kinds.includes('quickfix')],
    ];
    if (!process.argv.includes('--no-codelens-required')) generationParts.push(['codeLensProvider', offersLenses]);
    const offersGeneration = generationParts.some(([, has]) => has);
    if (offersGeneration) {
      for (const [part, has] of generationParts) want(has, `the server offers part of generate/fix/CodeLens but not the ${part}`);
    }
    // vscode-languageclient registers the server's commands as VS Code commands: a clash with
    // the extension's own commands would make activation fail.
    const extensionDir = process.env['GREENLIGHT_VSCODE_DIR'] ?? path.join(__dirname, '..', '..');
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
    const ours = (manifest.contributes.commands as { command: string }[]).map((c) => c.command);
    for (const c of commands) want(!ours.includes(c), `server command ${c} collides with the extension's command`);
    check(gaps.length === 0, `${gaps.length} capability gap(s):\n  ${gaps.join('\n  ')}`);
    console.log(`initialize: ok (positionEncoding ${caps.positionEncoding ?? 'absent'}, ${commands.length} commands, ` +
      `generate/fix/CodeLens ${offersGeneration ? 'offered' : 'not offered yet'})`);

    void conn.sendNotification('initialized', {});
    await waitFor(() => pulls > 0, 5000, 'workspace/configuration after initialized');
    check(JSON.stringify(answered[0]) === JSON.stringify([{ refine: { maxRounds: 2 }, sandbox: { timeLimitSeconds: 7 } }]),
      `configuration answer ${JSON.stringify(answered[0])}`);
    void conn.sendNotification('workspace/didChangeConfiguration', { settings: { greenlight: serverSettings(settings) } });
    await waitFor(() => pulls > 1, 5000, 'a second pull after workspace/didChangeConfiguration');
    console.log(`workspace/configuration: pulled ${pulls} times`);

    const uri = pathToFileURL(path.join(workspace, 'calc.py')).toString();
    void conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'python', version: 1, text: fs.readFileSync(path.join(workspace, 'calc.py'), 'utf8') },
    });
    const actions = (await withTimeout(conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 1, character: 4 }, end: { line: 1, character: 4 } },
      context: { diagnostics: [], triggerKind: 1 },
    }), 5000, 'textDocument/codeAction')) as CodeAction[] | null;
    const run = (actions ?? []).find((a) => a.title === 'Run nearby tests in sandbox');
    check(run, `no "Run nearby tests in sandbox" in ${JSON.stringify((actions ?? []).map((a) => a.title))}`);
    check(run.kind === 'source.greenlight.runTests', `kind ${run.kind}`);
    const resolved = (run.command ? run : await conn.sendRequest('codeAction/resolve', run)) as CodeAction;
    check(resolved.command?.command === 'greenlight.runTests', `command ${JSON.stringify(resolved.command)}`);
    const args = resolved.command.arguments?.[0] as { uri?: string; position?: { line: number; character: number } } | undefined;
    check(args?.uri === uri, `runTests argument uri ${JSON.stringify(args)}`);
    check(args?.position === undefined || (args.position.line === 1 && args.position.character === 4),
      `runTests argument position ${JSON.stringify(args?.position)}`);
    console.log('codeAction: "Run nearby tests in sandbox" -> greenlight.runTests {uri, position}');

    if (offersLenses) {
      // Every lens must run one of the server's commands (vscode-languageclient registered them
      // as VS Code commands: that is what a click runs) with {uri, position}; add() is tested by
      // test_calc.py, so it has a "Run tests" lens.
      interface Lens { range: unknown; command?: { title: string; command: string; arguments?: { uri?: string; position?: unknown }[] } }
      const lenses = (await withTimeout(conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }), 5000,
        'textDocument/codeLens')) as Lens[] | null;
      check(Array.isArray(lenses), `codeLens result ${JSON.stringify(lenses)}`);
      for (const lens of lenses) {
        check(lens.command && commands.includes(lens.command.command),
          `lens ${JSON.stringify(lens)} runs no command the server registered (${JSON.stringify(commands)})`);
        const arg = lens.command.arguments?.[0];
        check(arg?.uri === uri && typeof arg.position === 'object', `lens arguments ${JSON.stringify(lens.command.arguments)}`);
      }
      check(lenses.some((l) => l.command?.command === 'greenlight.runTests'),
        `no greenlight.runTests lens for the tested add() in ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
      console.log(`codeLens: ${lenses.length} lens(es), each runs a registered command with {uri, position}`);
    }

    // LSP: shutdown answers with a null result. An error here makes clients kill the server
    // (Neovim 0.7 sends SIGTERM) and vscode-languageclient log a failed stop.
    try {
      await withTimeout(conn.sendRequest('shutdown'), 5000, 'the shutdown response');
    } catch (e) {
      throw new Failure(`shutdown must answer with a null result, got an error: ${e instanceof Error ? e.message : String(e)}`);
    }
    void conn.sendNotification('exit');
    const code = await withTimeout(exited, 5000, 'the server to exit after exit');
    check(code === 0, `exit code ${String(code)} after shutdown + exit (stderr: ${stderr.slice(-2000)})`);
    console.log('shutdown + exit: exit code 0');
    return 0;
  } finally {
    connection?.dispose();
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`FAIL: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
