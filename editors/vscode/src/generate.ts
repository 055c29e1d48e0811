// Running greenlight.generate and greenlight.fix, however they were started: the palette
// commands, the keybindings, a code action from the light bulb / Ctrl+., or a "✨ Generate"
// CodeLens. The last two reach vscode-languageclient's registration of the server's commands;
// the `executeCommand` middleware (routeWorkCommands) hands them here instead of to its plain
// request, so every path gets the same progress, cancellation and outcome.
//
// One run: the request carries a workDoneToken of our own, so the server reports $/progress on
// it without asking window/workDoneProgress/create; the ProgressTracker lists the run at once (the
// status bar spins before the server's first word) and opens the cancellable notification on
// `begin`. Cancel (the notification's button, the status bar, Greenlight: Cancel) cancels the
// request: $/cancelRequest, which the server answers with -32800 after stopping the model and
// the sandbox. The server applies the edit itself (workspace/applyEdit, handled by the client)
// before it answers; the answer is the `generate --json` object, shown here as one line in the
// status bar. The server tells the user what needs telling (no provider configured, the code
// changed meanwhile, no candidate passed: window/showMessage[Request]); this file adds no second
// pop-up for those, only for errors the server could not report (a failed request).
//
// Tests first (issue 36): a generate answered `tests_proposed` wrote nothing; the proposal goes to
// WorkUi.reviewTests (testsPreview.ts in VS Code), and when the user accepts, the same command
// runs again with the accepted text as `tests` (a second request, its own progress): the server
// then lands tests and code in one edit. Cancel ends there, nothing sent, nothing written.
import * as vscode from 'vscode';
import {
  CancellationToken,
  CancellationTokenSource,
  ErrorCodes,
  ExecuteCommandParams,
  ExecuteCommandRequest,
  LSPErrorCodes,
  ProgressToken,
  ResponseError,
} from 'vscode-languageclient/node';
import { ProgressTracker } from './progress';
import { cancelledText, kProduct, Outcome, outcomeText, WorkKind } from './progressText';
import { acceptArguments, isTestsProposed, parseProposal, TestsDecision, TestsProposal } from './testsProposal';

export const kWorkCommands = { 'greenlight.generate': 'generate', 'greenlight.fix': 'fix' } as const;
export type WorkCommand = keyof typeof kWorkCommands;

export function isWorkCommand(command: string): command is WorkCommand {
  return Object.prototype.hasOwnProperty.call(kWorkCommands, command);
}

// The request side of a language client (or of a bare jsonrpc connection, in the e2e test).
export interface RequestClient {
  sendRequest<R>(method: string, param: unknown, token?: CancellationToken): Promise<R>;
}

// Where a run's outcome goes; the default is VS Code's status bar, output channel and messages.
export interface WorkUi {
  statusMessage(text: string): void;
  log(line: string): void;
  error(message: string): void;
  // Shows proposed tests and resolves with the user's decision; absent: proposals are only
  // reported (the status bar line), never accepted.
  reviewTests?(proposal: TestsProposal): Promise<TestsDecision>;
}

export function vscodeWorkUi(output: vscode.OutputChannel, reviewTests?: WorkUi['reviewTests']): WorkUi {
  return {
    ...(reviewTests ? { reviewTests } : {}),
    statusMessage: (text) => void vscode.window.setStatusBarMessage(text, 10000),
    log: (line) => output.appendLine(line),
    error: (message) =>
      void vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
        if (choice) output.show(true);
      }),
  };
}

const kProvisionalTitle: Record<WorkKind, string> = { generate: 'Generating', fix: 'Fixing' };

export class WorkRunner {
  private sequence = 0;

  constructor(
    private readonly client: RequestClient,
    private readonly tracker: ProgressTracker,
    private readonly ui: WorkUi,
    // Distinguishes this extension host's tokens from the server's own.
    private readonly tokenPrefix = `greenlight-vscode-${process.pid}`,
  ) {}

  // Runs the command to its end; resolves with the command's result (the `generate --json`
  // object), or undefined when it was cancelled or failed. Never rejects: a CodeLens click or a
  // code action would turn a rejection into VS Code's own "command failed" pop-up.
  async run(command: WorkCommand, args: readonly unknown[]): Promise<unknown> {
    const kind = kWorkCommands[command];
    const token: ProgressToken = `${this.tokenPrefix}-${++this.sequence}`;
    const source = new CancellationTokenSource();
    const work = this.tracker.trackClient(token, kProvisionalTitle[kind], () => source.cancel());
    const params: ExecuteCommandParams = { command, arguments: [...args], workDoneToken: token };
    let outcome: Outcome;
    let result: unknown;
    try {
      result = await this.client.sendRequest<unknown>(ExecuteCommandRequest.method, params, source.token);
      outcome = outcomeText(kind, result, work.endMessage);
    } catch (e) {
      result = undefined;
      if (isCancellation(e)) {
        outcome = cancelledText(kind, work.title);
      } else {
        const reason = e instanceof Error ? e.message : String(e);
        const what = kind === 'generate' ? 'generation' : 'fix';
        outcome = { text: `$(error) ${kProduct}: ${what} failed`, log: `${what}: the request failed: ${reason}` };
        if (!isConnectionGone(e)) this.ui.error(`${kProduct}: ${what} failed: ${reason}`);
      }
    } finally {
      work.dispose();
      source.dispose();
    }
    this.ui.log(outcome.log);
    this.ui.statusMessage(outcome.text);
    if (command === 'greenlight.generate' && isTestsProposed(result)) return this.review(command, args, result);
    return result;
  }

  // The user's turn on proposed tests: accepted, the command runs again with them; cancelled or
  // unreviewable, the proposal is the result and nothing was written.
  private async review(command: WorkCommand, args: readonly unknown[], result: unknown): Promise<unknown> {
    const proposal = parseProposal(result);
    if (typeof proposal !== 'object') {
      this.ui.error(`${kProduct}: the server's test proposal cannot be shown: ${proposal ?? 'no proposal'}`);
      return result;
    }
    const first = args[0] as { tests?: unknown } | undefined;
    if (first && typeof first === 'object' && first.tests !== undefined) {
      // The server proposed again although it was given tests: asking again could loop.
      this.ui.error(`${kProduct}: the server proposed tests again instead of using the accepted ones; nothing written`);
      return result;
    }
    if (!this.ui.reviewTests) return result;
    let decision: TestsDecision;
    try {
      decision = await this.ui.reviewTests(proposal);
    } catch (e) {
      this.ui.error(`${kProduct}: showing the proposed tests failed: ${e instanceof Error ? e.message : String(e)}`);
      return result;
    }
    const who = proposal.target ?? kProduct;
    if (!decision.accept) {
      this.ui.log(`tests first${proposal.target ? ` for ${proposal.target}()` : ''}: cancelled; nothing written`);
      this.ui.statusMessage(`$(circle-slash) ${who}: proposed tests cancelled; nothing written`);
      return result;
    }
    const edited = decision.text !== proposal.text;
    this.ui.log(`tests first${proposal.target ? ` for ${proposal.target}()` : ''}: accepted${edited ? ' (edited)' : ''}; generating against them`);
    return this.run(command, acceptArguments(args, proposal.uri, decision.text));
  }
}

function isCancellation(e: unknown): boolean {
  return (
    (e instanceof ResponseError && (e.code === LSPErrorCodes.RequestCancelled || e.code === LSPErrorCodes.ServerCancelled)) ||
    (e instanceof Error && e.name === 'Canceled')
  );
}

function isConnectionGone(e: unknown): boolean {
  return e instanceof ResponseError && (e.code === ErrorCodes.PendingResponseRejected || e.code === ErrorCodes.ConnectionInactive);
}

type Next = (command: string, args: unknown[]) => vscode.ProviderResult<unknown>;

// The `executeCommand` middleware of the language client: the server's generate/fix commands
// (registered by vscode-languageclient from executeCommandProvider) run through the WorkRunner;
// every other command (greenlight.runTests, greenlight.cancel) takes the client's own path, except
// that a cancelled run (-32800, which the client turns into a CancellationError) ends quietly:
// the user asked for it, and a rejection from a CodeLens click would become an error pop-up.
export function routeWorkCommands(runner: () => WorkRunner | undefined) {
  return (command: string, args: unknown[], next: Next): vscode.ProviderResult<unknown> => {
    const current = runner();
    if (current && isWorkCommand(command)) return current.run(command, args);
    const result = next(command, args);
    if (!isThenable(result)) return result;
    return Promise.resolve(result).catch((e: unknown) => {
      if (isCancellation(e)) return undefined;
      throw e;
    });
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
