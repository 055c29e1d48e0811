// The workspace's tests in the Testing view from the start, before any file is opened, as the
// Python and Jest extensions show them (README "The language server: commands and test views"):
//  - when a server starts (and on the view's refresh): greenlight/listWorkspaceTests for the
//    workspace folder; the server walks it in the background within a budget;
//  - a folder the budget did not reach comes back unresolved and is listed when the user expands
//    it (TestController.resolveHandler, through testing.ts), so a large repository is listed
//    folder by folder;
//  - files created, changed or deleted on disk (a FileSystemWatcher: git checkout, another
//    editor, a generator) are listed again, batched: their tests appear, change or go.
// The tree itself (items, their places, what a result does) is testing.ts's.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { ChangeBatch, isWatchedPath, ListWorkspaceTestsResult } from './testModel';

// What a listing is of: the workspace folder, one folder (expanded), or changed paths.
export interface WorkspaceScope {
  folder?: vscode.Uri;
  uris?: vscode.Uri[];
}

export interface WorkspaceTree {
  mergeWorkspace(result: ListWorkspaceTestsResult, scope: WorkspaceScope): void;
}

const kBatchMs = 300;

export class WorkspaceTests implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly batch = new ChangeBatch(kBatchMs, (uris) => void this.listChanged(uris.map((u) => vscode.Uri.parse(u))));
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly tree: WorkspaceTree,
    private readonly log: (line: string) => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => this.changed(uri)),
      watcher.onDidChange((uri) => this.changed(uri)),
      watcher.onDidDelete((uri) => this.changed(uri)),
      this.batch,
    );
  }

  attach(client: LanguageClient): void {
    this.client = client;
    void this.list({});
  }

  detach(): void {
    this.client = undefined;
  }

  dispose(): void {
    this.detach();
    for (const s of this.subscriptions) s.dispose();
  }

  // The workspace folder (no scope) or one folder; resolves once the tree has the answer.
  async list(scope: WorkspaceScope): Promise<void> {
    const client = this.client;
    if (!client) return;
    const c2p = client.code2ProtocolConverter;
    const params: { folder?: string; uris?: string[] } = {};
    if (scope.folder) params.folder = c2p.asUri(scope.folder);
    if (scope.uris) params.uris = scope.uris.map((u) => c2p.asUri(u));
    let result: ListWorkspaceTestsResult | null;
    try {
      result = await client.sendRequest<ListWorkspaceTestsResult | null>('greenlight/listWorkspaceTests', params);
    } catch (e) {
      this.log(`testing: greenlight/listWorkspaceTests ${JSON.stringify(params)}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (client !== this.client || !result) return;
    if (result.truncated && !scope.uris) this.log(`testing: the workspace listing stopped at its budget; folders are listed as they are expanded`);
    this.tree.mergeWorkspace(result, scope);
  }

  private changed(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || !this.client) return;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const root = folder.uri.fsPath.replace(/\/+$/, '');
    const file = uri.fsPath;
    if (!file.startsWith(root + '/')) return;
    if (!isWatchedPath(file.slice(root.length + 1))) return;
    this.batch.add(uri.toString());
  }

  private async listChanged(uris: vscode.Uri[]): Promise<void> {
    await this.list({ uris });
  }
}
