// Tests first (issue 36) in VS Code: the proposed test file, shown for the user to accept, edit or
// cancel before anything is written.
//
// A diff editor: on the left the test file as it is (its current text, or an empty document when
// it does not exist), on the right the proposal. Both live in an in-memory file system of our
// own (scheme greenlight-tests), never on disk, under the test file's own name so the language
// (and highlighting) is right. The right side is writable: "Edit" focuses it, and what counts on
// accept is its text at that moment, saved or not. Flagged tests (they pass on the stub) are
// marked on their lines and named in the notification. The choices are in the notification and,
// since a notification hides after a while, in the diff's title bar (greenlight.acceptTests /
// greenlight.cancelTests). Closing the diff is Cancel.
//
// Threading: VS Code's extension host is single-threaded; one review at a time per proposal,
// several proposals may be open at once (each under its own folder of the file system).
import * as vscode from 'vscode';
import { kProduct as kProductName } from './progressText';
import { baseName, kAccept, kCancel, kEdit, normalizeText, proposalMessage, TestsDecision, TestsProposal } from './testsProposal';

export const kTestsScheme = 'greenlight-tests';

// Just enough of a file system for two documents per proposal: files by path, folders implied.
class MemoryFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  put(uri: vscode.Uri, text: string): void {
    this.files.set(uri.path, { data: new TextEncoder().encode(text), mtime: Date.now() });
  }

  remove(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: file.mtime, mtime: file.mtime, size: file.data.byteLength };
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    if ([...this.files.keys()].some((p) => p.startsWith(prefix))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {}

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    // Only the proposals we opened: a save elsewhere under the scheme has nowhere to go.
    if (!this.files.has(uri.path)) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(uri.path, { data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposed tests cannot be renamed');
  }
}

type Choice = typeof kAccept | typeof kEdit | typeof kCancel;

export const kTestsCommands = { accept: 'greenlight.acceptTests', cancel: 'greenlight.cancelTests' } as const;

export class TestsPreview implements vscode.Disposable {
  private readonly fs = new MemoryFileSystem();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly flaggedDecoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('inputValidation.warningBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  // Open reviews by folder ("/3"): how the title bar's commands answer them.
  private readonly pending = new Map<string, (choice: Choice) => void>();
  private sequence = 0;

  constructor() {
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(kTestsScheme, this.fs, { isCaseSensitive: true }),
      this.flaggedDecoration,
      // A toast hides after a while; the diff's title bar keeps the choices while it is open.
      vscode.commands.registerCommand(kTestsCommands.accept, (uri?: unknown) => this.answer(uri, kAccept)),
      vscode.commands.registerCommand(kTestsCommands.cancel, (uri?: unknown) => this.answer(uri, kCancel)),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    for (const resolve of this.pending.values()) resolve(kCancel);
    this.pending.clear();
  }

  // Shows `proposal` and resolves with what the user decided. Never writes outside memory.
  async review(proposal: TestsProposal): Promise<TestsDecision> {
    const folder = `/${++this.sequence}`;
    const name = baseName(proposal.file);
    const current = vscode.Uri.from({ scheme: kTestsScheme, path: `${folder}/current/${name}` });
    const proposed = vscode.Uri.from({ scheme: kTestsScheme, path: `${folder}/proposed/${name}` });
    this.fs.put(current, proposal.original ?? '');
    this.fs.put(proposed, proposal.text);
    let answered: (choice: Choice) => void = () => undefined;
    const fromTitleBar = new Promise<Choice>((resolve) => (answered = resolve));
    this.pending.set(folder, answered);
    let closed: { promise: Promise<Choice>; dispose(): void } | undefined;
    try {
      const title = `${name} ${proposal.exists ? '↔ proposed tests' : '(new file) ↔ proposed tests'}`;
      await vscode.commands.executeCommand('vscode.diff', current, proposed, title, { preview: false });
      this.markFlagged(proposed, proposal);
      closed = this.whenClosed(proposed);
      let message = proposalMessage(proposal);
      for (;;) {
        const shown = message.warning
          ? vscode.window.showWarningMessage(message.text, kAccept, kEdit, kCancel)
          : vscode.window.showInformationMessage(message.text, kAccept, kEdit, kCancel);
        // A click on this notification after the review ended (answered from the title bar or by
        // closing the diff) has nothing left to answer: say so rather than nothing.
        void Promise.resolve(shown).then((late) => {
          if (late && !this.pending.has(folder)) vscode.window.setStatusBarMessage(`${kProductName}: those proposed tests were already answered`, 5000);
        });
        const choice: Choice | undefined = await Promise.race([shown as Thenable<Choice | undefined>, closed.promise, fromTitleBar]);
        if (choice === kEdit) {
          await this.focus(proposed);
          message = { text: `Edit the proposed tests in ${name} (right side), then accept them: your text is what the code must pass.`, warning: false };
          continue;
        }
        if (choice !== kAccept) return { accept: false };
        const document = await vscode.workspace.openTextDocument(proposed);
        return { accept: true, text: normalizeText(document.getText()) };
      }
    } finally {
      this.pending.delete(folder);
      closed?.dispose();
      // VS Code cannot close a notification: its toast would stay on screen offering choices
      // that no longer apply (and hide the next proposal's). Hidden, it waits in the
      // notification center like any other.
      void vscode.commands.executeCommand('notifications.hideToasts');
      await this.close(proposed);
      this.fs.remove(current);
      this.fs.remove(proposed);
    }
  }

  // A title bar command: the review whose diff it was run from (VS Code passes that editor's
  // resource), else the one in the active tab, else the newest.
  private answer(uri: unknown, choice: Choice): void {
    const folderOf = (u: vscode.Uri | undefined) => (u?.scheme === kTestsScheme ? `/${u.path.split('/')[1] ?? ''}` : undefined);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const candidates = [
      folderOf(uri instanceof vscode.Uri ? uri : undefined),
      folderOf(input instanceof vscode.TabInputTextDiff ? input.modified : undefined),
      [...this.pending.keys()].pop(),
    ];
    for (const folder of candidates) {
      const resolve = folder ? this.pending.get(folder) : undefined;
      if (resolve) return resolve(choice);
    }
    void vscode.window.showInformationMessage(`${kProductName}: no proposed tests are open.`);
  }

  private markFlagged(proposed: vscode.Uri, proposal: TestsProposal): void {
    const lines = proposal.flagged.filter((f) => f.line !== undefined).map((f) => ({ line: f.line! - 1, message: f.message }));
    if (lines.length === 0) return;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== proposed.toString()) continue;
      editor.setDecorations(
        this.flaggedDecoration,
        lines
          .filter((l) => l.line < editor.document.lineCount)
          .map((l) => ({ range: editor.document.lineAt(l.line).range, hoverMessage: `Greenlight: ${l.message}` })),
      );
    }
  }

  private async focus(proposed: vscode.Uri): Promise<void> {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === proposed.toString());
    if (editor) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  }

  // Resolves kCancel when the user closes the diff tab.
  private whenClosed(proposed: vscode.Uri): { promise: Promise<Choice>; dispose(): void } {
    let listener: vscode.Disposable | undefined;
    const promise = new Promise<Choice>((resolve) => {
      listener = vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (e.closed.some((tab) => isProposalTab(tab, proposed))) resolve(kCancel);
      });
    });
    return { promise, dispose: () => listener?.dispose() };
  }

  private async close(proposed: vscode.Uri): Promise<void> {
    // An edited proposal is saved into memory first, so closing asks no "save changes?".
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === proposed.toString());
    if (document?.isDirty) await document.save();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => isProposalTab(tab, proposed));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }
}

function isProposalTab(tab: vscode.Tab, proposed: vscode.Uri): boolean {
  const input = tab.input;
  if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === proposed.toString();
  if (input instanceof vscode.TabInputText) return input.uri.toString() === proposed.toString();
  return false;
}
