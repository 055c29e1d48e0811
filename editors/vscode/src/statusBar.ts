// One status bar item: server state when idle, the running work (with percentage) while the
// server reports progress; clicking cancels running work, otherwise opens the output.
import * as vscode from 'vscode';
import { ActiveWork } from './progress';

export type ServerState =
  | { kind: 'starting' }
  | { kind: 'running'; serverPath: string; version?: string }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('greenlight.status', vscode.StatusBarAlignment.Left, 0);
  private state: ServerState = { kind: 'stopped' };
  private work: readonly ActiveWork[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly languages: readonly string[]) {
    this.item.name = 'greenlight';
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  setWork(work: readonly ActiveWork[]): void {
    this.work = work;
    this.render();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }

  private render(): void {
    const item = this.item;
    item.backgroundColor = undefined;
    const current = this.work[this.work.length - 1];
    if (current) {
      const pct = current.percentage !== undefined ? ` ${Math.round(current.percentage)}%` : '';
      const more = this.work.length > 1 ? ` (+${this.work.length - 1})` : '';
      item.text = `$(sync~spin) greenlight: ${current.title}${pct}${more}`;
      item.tooltip = `${current.title}${current.message ? ': ' + current.message : ''}` +
        (current.cancellable ? '\nClick to cancel.' : '');
      item.command = current.cancellable ? 'greenlight.cancelRun' : 'greenlight.showOutput';
      item.show();
      return;
    }
    switch (this.state.kind) {
      case 'starting':
        item.text = '$(loading~spin) greenlight';
        item.tooltip = 'greenlight: starting the server';
        break;
      case 'running':
        item.text = '$(beaker) greenlight';
        item.tooltip = `${this.state.version ?? 'greenlight'} (${this.state.serverPath})\nClick to show the output.`;
        break;
      case 'stopped':
        item.text = '$(debug-stop) greenlight';
        item.tooltip = 'greenlight: server stopped. Run "greenlight: Restart server" to start it.';
        break;
      case 'failed':
        item.text = '$(error) greenlight';
        item.tooltip = `greenlight: ${this.state.message}\nClick to show the output.`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
    item.command = 'greenlight.showOutput';
    const language = vscode.window.activeTextEditor?.document.languageId;
    if ((language !== undefined && this.languages.includes(language)) || this.state.kind === 'failed') item.show();
    else item.hide();
  }
}
