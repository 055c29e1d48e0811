// The palette commands. The server's own commands (greenlight.runTests, greenlight.generate,
// greenlight.fix, greenlight.cancel) are registered by vscode-languageclient from the server's
// executeCommandProvider, so ours use different ids and call them through the client.
import * as vscode from 'vscode';
import {
  CodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  Command,
  ExecuteCommandRequest,
  LanguageClient,
} from 'vscode-languageclient/node';
import { kLanguages, ServerManager } from './client';

const kGenerateKind = 'refactor.rewrite.greenlight';

export function registerCommands(manager: ServerManager): vscode.Disposable[] {
  const inFlight = new Set<vscode.CancellationTokenSource>();

  // Runs `fn` with a client and the active greenlight editor, or explains why it cannot.
  async function withEditor(
    fn: (client: LanguageClient, editor: vscode.TextEditor, token: vscode.CancellationToken) => Promise<void>,
  ): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !(kLanguages as readonly string[]).includes(editor.document.languageId)) {
      void vscode.window.showInformationMessage('greenlight: open a Python, JavaScript or C++ file first.');
      return;
    }
    const client = manager.languageClient;
    if (!client) {
      void vscode.window.showErrorMessage('greenlight: the server is not running.', 'Restart server', 'Show Output').then((c) => {
        if (c === 'Restart server') void vscode.commands.executeCommand('greenlight.restartServer');
        if (c === 'Show Output') manager.output.show(true);
      });
      return;
    }
    const source = new vscode.CancellationTokenSource();
    inFlight.add(source);
    try {
      await fn(client, editor, source.token);
    } catch (e) {
      if (!source.token.isCancellationRequested) {
        void vscode.window.showErrorMessage(`greenlight: ${e instanceof Error ? e.message : String(e)}`);
      }
    } finally {
      inFlight.delete(source);
      source.dispose();
    }
  }

  async function execute(client: LanguageClient, command: Command, token: vscode.CancellationToken): Promise<void> {
    await client.sendRequest(ExecuteCommandRequest.type, { command: command.command, arguments: command.arguments }, token);
  }

  const runNearbyTests = () =>
    withEditor(async (client, editor, token) => {
      const c2p = client.code2ProtocolConverter;
      await execute(
        client,
        {
          title: 'Run nearby tests',
          command: 'greenlight.runTests',
          arguments: [{ uri: c2p.asUri(editor.document.uri), position: c2p.asPosition(editor.selection.active) }],
        },
        token,
      );
    });

  // Asks the server for its generate action at the cursor (the server decides which comment and
  // what arguments), resolves it if needed, then runs it.
  const generateFromComment = () =>
    withEditor(async (client, editor, token) => {
      const c2p = client.code2ProtocolConverter;
      const line = editor.document.lineAt(editor.selection.active.line).range;
      const result = await client.sendRequest(
        CodeActionRequest.type,
        {
          textDocument: c2p.asTextDocumentIdentifier(editor.document),
          range: c2p.asRange(editor.selection.isEmpty ? line : editor.selection),
          context: { diagnostics: [], only: [kGenerateKind] },
        },
        token,
      );
      const actions = (result ?? []).filter((a): a is CodeAction => CodeAction.is(a) && (a.kind ?? '').startsWith(kGenerateKind));
      if (actions.length === 0) {
        void vscode.window.showInformationMessage(
          'greenlight: no comment to generate from here. Put the cursor on a comment that describes the code to write.',
        );
        return;
      }
      let action = actions[0]!;
      if (actions.length > 1) {
        const pick = await vscode.window.showQuickPick(
          actions.map((a) => ({ label: a.title, action: a })),
          { placeHolder: 'greenlight: generate from which comment?' },
        );
        if (!pick) return;
        action = pick.action;
      }
      if (!action.command && !action.edit) action = await client.sendRequest(CodeActionResolveRequest.type, action, token);
      if (action.edit) {
        const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit);
        await vscode.workspace.applyEdit(edit);
      }
      if (action.command) await execute(client, action.command, token);
    });

  const cancelRun = async () => {
    const client = manager.languageClient;
    for (const source of inFlight) source.cancel();
    const cancelled = manager.progressTracker?.cancelAll() ?? 0;
    if (client) await client.sendRequest(ExecuteCommandRequest.type, { command: 'greenlight.cancel', arguments: [] });
    if (!client && cancelled === 0) void vscode.window.setStatusBarMessage('greenlight: nothing to cancel', 3000);
  };

  return [
    vscode.commands.registerCommand('greenlight.runNearbyTests', runNearbyTests),
    vscode.commands.registerCommand('greenlight.generateFromComment', generateFromComment),
    vscode.commands.registerCommand('greenlight.cancelRun', cancelRun),
    vscode.commands.registerCommand('greenlight.restartServer', () => manager.restart()),
    vscode.commands.registerCommand('greenlight.showOutput', () => manager.output.show(true)),
  ];
}
