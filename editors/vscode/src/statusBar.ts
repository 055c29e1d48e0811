// One status bar item: server state when idle, the running work while there is some (texts in
// progressText.ts: `$(sync~spin) slugify: round 2/3`); clicking cancels running work, otherwise
// opens the output.
import * as vscode from 'vscode';
import { kProduct, statusText, WorkView } from './progressText';

export type ServerState =
  | { kind: 'starting' }
  | { kind: 'running'; serverPath: string; version?: string }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('greenlight.status', vscode.StatusBarAlignment.Left, 0);
  private state: ServerState = { kind: 'stopped' };
  private work: readonly WorkView[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly languages: readonly string[]) {
    this.item.name = kProduct;
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  setWork(work: readonly WorkView[]): void {
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
    const running = statusText(this.work);
    if (running) {
      item.text = running.text;
      item.tooltip = running.tooltip;
      item.command = running.cancellable ? 'greenlight.cancelRun' : 'greenlight.showOutput';
      item.show();
      return;
    }
    switch (this.state.kind) {
      case 'starting':
        item.text = `$(loading~spin) ${kProduct}`;
        item.tooltip = `${kProduct}: starting the server`;
        break;
      case 'running':
        item.text = `$(beaker) ${kProduct}`;
        item.tooltip = `${this.state.version ?? 'greenlight'} (${this.state.serverPath})\nClick to show the output.`;
        break;
      case 'stopped':
        item.text = `$(debug-stop) ${kProduct}`;
        item.tooltip = `${kProduct}: server stopped. Run "${kProduct}: Restart Server" to start it.`;
        break;
      case 'failed':
        item.text = `$(error) ${kProduct}`;
        item.tooltip = `${kProduct}: ${this.state.message}\nClick to show the output.`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
    item.command = 'greenlight.showOutput';
    const language = vscode.window.activeTextEditor?.document.languageId;
    if ((language !== undefined && this.languages.includes(language)) || this.state.kind === 'failed') item.show();
    else item.hide();
  }
}
