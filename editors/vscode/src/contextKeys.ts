// The context keys package.json's when-clauses use:
//   greenlight.languages  the language ids the server handles (`editorLangId in greenlight.languages`)
//   greenlight.busy       some cancellable work is running (Cancel's keybinding and menu entry)
//   greenlight.canFix     the active editor has a diagnostic greenlight.fix can fix (context menu)
// Each is set only when its value changes: setContext is a round trip to the renderer.
import * as vscode from 'vscode';
import { isFixable } from './fix';
import { WorkView } from './progressText';

export const kContextKeys = ['greenlight.languages', 'greenlight.busy', 'greenlight.canFix'] as const;
type ContextKey = (typeof kContextKeys)[number];

export class ContextKeys implements vscode.Disposable {
  private readonly values = new Map<ContextKey, unknown>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(languages: readonly string[]) {
    this.set('greenlight.languages', [...languages]);
    this.subscriptions.push(
      vscode.languages.onDidChangeDiagnostics((e) => {
        const uri = vscode.window.activeTextEditor?.document.uri.toString();
        if (uri !== undefined && e.uris.some((u) => u.toString() === uri)) this.updateCanFix();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateCanFix()),
    );
    this.updateCanFix();
  }

  setWork(work: readonly WorkView[]): void {
    this.set('greenlight.busy', work.some((w) => w.cancellable && !w.cancelling));
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  private updateCanFix(): void {
    const document = vscode.window.activeTextEditor?.document;
    this.set('greenlight.canFix', document !== undefined && vscode.languages.getDiagnostics(document.uri).some(isFixable));
  }

  private set(key: ContextKey, value: unknown): void {
    if (JSON.stringify(this.values.get(key)) === JSON.stringify(value)) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
