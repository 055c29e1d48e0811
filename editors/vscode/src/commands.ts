// The palette commands (package.json "contributes.commands"; keybindings in the README).
//
// The server's own commands (greenlight.runTests, greenlight.generate, greenlight.fix,
// greenlight.cancel) are registered by vscode-languageclient from the server's
// executeCommandProvider, so ours use different ids: registering one of those ids here would
// make activation fail with "command already exists". Ours work out the arguments from the
// editor and then run the server's command: generate and fix through the WorkRunner (progress,
// cancel, outcome), the rest as plain requests.
import * as vscode from 'vscode';
import {
  CodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  ExecuteCommandRequest,
  LanguageClient,
} from 'vscode-languageclient/node';
import { kLanguages, ServerManager } from './client';
import { fixArguments, pickDiagnostic } from './fix';
import { isWorkCommand, WorkRunner } from './generate';
import { kProduct } from './progressText';

const kGenerateKind = 'refactor.rewrite.greenlight';

export const kCommandIds = {
  generate: 'greenlight.generateFromComment',
  fix: 'greenlight.fixFailingTest',
  runTests: 'greenlight.runNearbyTests',
  cancel: 'greenlight.cancelRun',
  restart: 'greenlight.restartServer',
  output: 'greenlight.showOutput',
} as const;

interface Context {
  client: LanguageClient;
  runner: WorkRunner;
  editor: vscode.TextEditor;
}

export function registerCommands(manager: ServerManager): vscode.Disposable[] {
  // Runs `fn` with a running client and the active greenlight editor, or says why it cannot.
  async function withEditor(fn: (context: Context) => Promise<void>): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !(kLanguages as readonly string[]).includes(editor.document.languageId)) {
      void vscode.window.showInformationMessage(`${kProduct}: open a Python, JavaScript or C++ file first.`);
      return;
    }
    const client = manager.languageClient;
    const runner = manager.workRunner;
    if (!client || !runner) {
      void vscode.window.showErrorMessage(`${kProduct}: the server is not running.`, 'Restart Server', 'Show Output').then((c) => {
        if (c === 'Restart Server') void vscode.commands.executeCommand(kCommandIds.restart);
        if (c === 'Show Output') manager.output.show(true);
      });
      return;
    }
    try {
      await fn({ client, runner, editor });
    } catch (e) {
      void vscode.window.showErrorMessage(`${kProduct}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  const runNearbyTests = () =>
    withEditor(async ({ client, editor }) => {
      const c2p = client.code2ProtocolConverter;
      await client.sendRequest(ExecuteCommandRequest.type, {
        command: 'greenlight.runTests',
        arguments: [{ uri: c2p.asUri(editor.document.uri), position: c2p.asPosition(editor.selection.active) }],
      });
    });

  // Asks the server for its generate action at the cursor: the server decides which comment or
  // stub is meant and what the arguments are, exactly as for the light bulb.
  const generateFromComment = () =>
    withEditor(async ({ client, runner, editor }) => {
      const c2p = client.code2ProtocolConverter;
      const line = editor.document.lineAt(editor.selection.active.line).range;
      const result = await client.sendRequest(CodeActionRequest.type, {
        textDocument: c2p.asTextDocumentIdentifier(editor.document),
        range: c2p.asRange(editor.selection.isEmpty ? line : editor.selection),
        context: { diagnostics: [], only: [kGenerateKind] },
      });
      const actions = (result ?? []).filter((a): a is CodeAction => CodeAction.is(a) && (a.kind ?? '').startsWith(kGenerateKind));
      if (actions.length === 0) {
        void vscode.window.showInformationMessage(
          `${kProduct}: nothing to generate here. Put the cursor on a comment that says what code to write, or on a stub (a function with an empty body).`,
        );
        return;
      }
      let action = actions[0]!;
      if (actions.length > 1) {
        const pick = await vscode.window.showQuickPick(
          actions.map((a) => ({ label: a.title, action: a })),
          { placeHolder: `${kProduct}: generate from which comment?` },
        );
        if (!pick) return;
        action = pick.action;
      }
      if (!action.command && !action.edit) action = await client.sendRequest(CodeActionResolveRequest.type, action);
      if (action.edit) await vscode.workspace.applyEdit(await client.protocol2CodeConverter.asWorkspaceEdit(action.edit));
      const command = action.command;
      if (!command) return;
      if (isWorkCommand(command.command)) await runner.run(command.command, command.arguments ?? []);
      else await client.sendRequest(ExecuteCommandRequest.type, { command: command.command, arguments: command.arguments });
    });

  // greenlight.fix on the greenlight diagnostic under the cursor, else the nearest one.
  const fixFailingTest = () =>
    withEditor(async ({ client, runner, editor }) => {
      const diagnostic = pickDiagnostic(vscode.languages.getDiagnostics(editor.document.uri), editor.selection.active);
      if (!diagnostic) {
        void vscode.window.showInformationMessage(
          `${kProduct}: no failing test in this file to fix. Run the tests first (${kProduct}: Run Nearby Tests).`,
        );
        return;
      }
      const c2p = client.code2ProtocolConverter;
      await runner.run('greenlight.fix', [fixArguments(c2p.asUri(editor.document.uri), c2p.asDiagnostic(diagnostic))]);
    });

  // Everything: the server's greenlight.cancel stops every test run, generation and fix
  // (including runs on save, which show no progress); the requests and progress this window
  // knows are cancelled too, so their UI says "cancelling…" at once.
  const cancelRun = async () => {
    const client = manager.languageClient;
    let cancelled: number | undefined;
    if (client) {
      try {
        const result = await client.sendRequest(ExecuteCommandRequest.type, { command: 'greenlight.cancel', arguments: [] });
        const n = (result as { cancelled?: unknown } | null)?.cancelled;
        if (typeof n === 'number') cancelled = n;
      } catch (e) {
        manager.output.appendLine(`cancel: greenlight.cancel failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const local = manager.progressTracker?.cancelAll() ?? 0;
    const count = Math.max(cancelled ?? 0, local);
    vscode.window.setStatusBarMessage(
      count === 0 ? `${kProduct}: nothing to cancel` : `$(circle-slash) ${kProduct}: cancelled ${count} task${count === 1 ? '' : 's'}`,
      5000,
    );
  };

  return [
    vscode.commands.registerCommand(kCommandIds.generate, generateFromComment),
    vscode.commands.registerCommand(kCommandIds.fix, fixFailingTest),
    vscode.commands.registerCommand(kCommandIds.runTests, runNearbyTests),
    vscode.commands.registerCommand(kCommandIds.cancel, cancelRun),
    vscode.commands.registerCommand(kCommandIds.restart, () => manager.restart()),
    vscode.commands.registerCommand(kCommandIds.output, () => manager.output.show(true)),
  ];
}
