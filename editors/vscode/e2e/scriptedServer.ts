// A scripted language server speaking the generate/fix wire contract (lsp-generate-contract),
// for e2e/workFlow.ts: it plays the real server's side of greenlight.generate / greenlight.fix
// with canned rounds, so the extension's side (workDoneToken, $/progress, $/cancelRequest,
// -32800, applyEdit, "no provider") is checked over a real jsonrpc connection without a model.
//
// What it does depends on the document's file name:
//   pass.py        two rounds ("round 1/2: 1/3 passed", "round 2/2: 3/3 passed"), one applyEdit, passed
//   fail.py        one round, 2/3 passed, showMessageRequest with the two actions, failed
//   slow.py        one report, then waits until the request is cancelled: -32800
//   noprovider.py  showMessage (type 1) + {status: "error"} at once, no progress
// `scripted/log` answers with what it received (commands, cancel requests, progress tokens it
// created), so the driver can assert on the wire.
//
//   node out/e2e/scriptedServer.js   (stdio)
import {
  CancellationToken,
  createMessageConnection,
  ProgressType,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));

interface Args {
  uri: string;
  position: { line: number; character: number };
  diagnostic?: unknown;
}
interface ExecuteCommandParams {
  command: string;
  arguments?: Args[];
  workDoneToken?: string | number;
}

const log = {
  commands: [] as ExecuteCommandParams[],
  // $/cancelRequest for a request in flight.
  cancelRequests: 0,
  createdTokens: [] as (string | number)[],
  applyResults: [] as unknown[],
};
const versions = new Map<string, number>();
// Cancels every generation in flight (greenlight.cancel).
const inFlight = new Set<() => void>();
let created = 0;

connection.onRequest('initialize', () => ({
  capabilities: {
    textDocumentSync: { openClose: true, change: 2 },
    codeActionProvider: { codeActionKinds: ['source.greenlight.runTests', 'refactor.rewrite.greenlight', 'quickfix'], resolveProvider: true },
    codeLensProvider: { resolveProvider: false },
    executeCommandProvider: { commands: ['greenlight.runTests', 'greenlight.generate', 'greenlight.fix', 'greenlight.cancel'] },
  },
  serverInfo: { name: 'greenlight-scripted', version: '0' },
}));
connection.onNotification('initialized', () => undefined);
connection.onNotification('textDocument/didOpen', (p: { textDocument: { uri: string; version: number } }) => {
  versions.set(p.textDocument.uri, p.textDocument.version);
});
connection.onRequest('scripted/log', () => log);
connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => process.exit(0));

function result(status: string, name: string, passed: number, failed: number, rounds: number, applied: boolean, error: string | null = null) {
  return {
    status,
    file: '/w/x.py',
    target: status === 'error' ? null : { name, line: 3, end_line: 4, kind: 'stub' },
    code: 'def slugify(s):\n    return s.lower().replace(" ", "-")\n',
    applied,
    rounds: Array.from({ length: rounds }, (_, i) => ({ round: i + 1, candidates: [{ status: 'failed', passed: i === rounds - 1 ? passed : 1, failed: i === rounds - 1 ? failed : 2, errors: 0 }] })),
    summary: { rounds, passed, failed },
    error,
  };
}

async function progressToken(params: ExecuteCommandParams): Promise<string | number> {
  if (params.workDoneToken !== undefined) return params.workDoneToken;
  const token = `scripted-${++created}`;
  await connection.sendRequest('window/workDoneProgress/create', { token });
  log.createdTokens.push(token);
  return token;
}

const kWorkDone = new ProgressType<object>();

function progress(token: string | number, value: object): void {
  void connection.sendProgress(kWorkDone, token, value);
}

connection.onRequest('workspace/executeCommand', async (params: ExecuteCommandParams, cancel: CancellationToken) => {
  log.commands.push(params);
  if (params.command === 'greenlight.cancel') {
    const n = inFlight.size;
    for (const stop of [...inFlight]) stop();
    return { cancelled: n };
  }
  if (params.command !== 'greenlight.generate' && params.command !== 'greenlight.fix') return null;
  const args = params.arguments?.[0];
  const file = args?.uri.split('/').pop() ?? '';
  const verb = params.command === 'greenlight.generate' ? 'Generating' : 'Fixing';
  if (file === 'noprovider.py') {
    void connection.sendNotification('window/showMessage', {
      type: 1,
      message: 'greenlight: no LLM provider is configured. Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or greenlight.baseUrl (Ollama, llama.cpp), then retry.',
    });
    return result('error', '', 0, 0, 0, false, 'no LLM provider is configured: set greenlight.provider, greenlight.baseUrl or an API key');
  }
  const token = await progressToken(params);
  progress(token, { kind: 'begin', title: `${verb} slugify()`, cancellable: true, message: 'round 1/2: asking the model', percentage: 0 });
  if (file === 'slow.py') {
    progress(token, { kind: 'report', message: 'round 1/2: writing… 12 tokens' });
    await new Promise<void>((resolve) => {
      const stop = () => {
        inFlight.delete(stop);
        resolve();
      };
      inFlight.add(stop);
      // vscode-jsonrpc turns $/cancelRequest for this request into the token.
      cancel.onCancellationRequested(() => {
        log.cancelRequests++;
        stop();
      });
    });
    progress(token, { kind: 'end', message: 'slugify: cancelled' });
    throw new ResponseError(-32800, 'greenlight: cancelled');
  }
  progress(token, { kind: 'report', message: 'round 1/2: running 3 tests', percentage: 25 });
  progress(token, { kind: 'report', message: 'round 1/2: 1/3 passed', percentage: 50 });
  if (file === 'fail.py') {
    progress(token, { kind: 'end', message: 'slugify: no candidate passed (best 2/3)' });
    void connection.sendRequest('window/showMessageRequest', {
      type: 2,
      message: 'greenlight: no candidate for slugify() passed in 1 rounds (best 2/3)',
      actions: [{ title: 'Show best attempt' }, { title: 'Retry with more rounds' }],
    });
    return result('failed', 'slugify', 2, 1, 1, false);
  }
  progress(token, { kind: 'report', message: 'round 2/2: asking the model', percentage: 50 });
  progress(token, { kind: 'report', message: 'round 2/2: 3/3 passed', percentage: 100 });
  const label = 'slugify: 3/3 tests passed in 2 rounds';
  const applied = (await connection.sendRequest('workspace/applyEdit', {
    label,
    edit: {
      documentChanges: [
        {
          textDocument: { uri: args!.uri, version: versions.get(args!.uri) ?? null },
          edits: [{ range: { start: { line: 3, character: 0 }, end: { line: 4, character: 8 } }, newText: 'def slugify(s):\n    return s.lower().replace(" ", "-")\n' }],
        },
      ],
    },
  })) as { applied: boolean };
  log.applyResults.push(applied);
  progress(token, { kind: 'end', message: label });
  return result('passed', 'slugify', 3, 0, 2, applied.applied);
});

connection.listen();
