// VS Code's Testing view (the beaker) and the editor gutter's run buttons, fed by the server's
// test-view methods (testModel.ts has the wire and the decisions; README "The language server:
// commands and test views"):
//  - the tree: the workspace's tests from the start (workspaceTests.ts: folder -> file), and
//    greenlight/listTests for every open Python/JavaScript/C++ document (again when one is opened
//    or saved, and on the view's refresh): file -> class / describe -> test, cases added as
//    results name them;
//  - runs: the Run profile sends greenlight.runTests with the ids asked for (one request per
//    file); cancelling the run cancels the request (the sandbox stops);
//  - results: greenlight/testResults, streamed as tests finish, whatever ran them; runs this
//    window did not start (a save, a generation, a CodeLens) get a TestRun of their own; failures
//    carry a TestMessage at the assertion, a diff when the runner rendered expected and actual;
//  - "Generate" and "Fix" in a failed test's context menu run greenlight.generate /
//    greenlight.fix (with progress and cancel, like the palette commands).
//  - coverage: a finished run's `coverage` (the covered files' lines and hit counts) goes on its
//    TestRun as FileCoverage (coverage.ts); a "Run with Coverage" profile runs as Run does (the
//    server measures every run).
// Problems and CodeLens are untouched: they come from the server as before (the "no test runs
// this line" diagnostics and the "· 75% of lines" CodeLens text included).
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { CoverageFeature, coverageApi } from './coverage';
import { coverageOf } from './coverageModel';
import { fixArguments, isFixable } from './fix';
import { WorkRunner } from './generate';
import { kProduct } from './progressText';
import {
  failureMessage,
  fileOfId,
  isCase,
  isFolder,
  ItemKind,
  ListedItem,
  ListTestsResult,
  ListWorkspaceTestsResult,
  placeFor,
  Range as WireRange,
  RunRouter,
  runAction,
  runNotes,
  runRequests,
  TestResultEntry,
  TestResultsParams,
} from './testModel';
import { WorkspaceScope, WorkspaceTests, WorkspaceTree } from './workspaceTests';

export const kTestingCommands = { generate: 'greenlight.testing.generate', fix: 'greenlight.testing.fix' } as const;

function toRange(r: WireRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

const kTriggerNames: Record<string, string> = { save: 'on save', generate: 'generation', fix: 'fix', runTests: 'run' };

export class TestingFeature implements vscode.Disposable, WorkspaceTree {
  readonly controller: vscode.TestController;
  private client: LanguageClient | undefined;
  private clientSubscription: vscode.Disposable | undefined;
  private readonly items = new Map<string, vscode.TestItem>();
  private readonly kinds = new Map<string, ItemKind>();
  private readonly workspace: WorkspaceTests;
  // Folders and files the workspace listing gave: only those can it say are gone (a source
  // file's doctests come from listTests alone).
  private readonly listedByWorkspace = new Set<string>();
  private readonly dynamic = new Set<string>();
  private readonly lastResults = new Map<string, { result: TestResultEntry; documentUri: string }>();
  private readonly applied = new WeakMap<vscode.TestRun, Map<string, string>>();
  private router = new RunRouter<vscode.TestRun>();
  private readonly coverage: CoverageFeature;
  // The profile runs this window did not start are filed under: with it, VS Code asks for their
  // per-line coverage too.
  private readonly backgroundProfile: vscode.TestRunProfile;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly languages: readonly string[],
    private readonly workRunner: () => WorkRunner | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.controller = vscode.tests.createTestController('greenlight', kProduct);
    this.workspace = new WorkspaceTests(this, log);
    this.controller.resolveHandler = async (item) => {
      if (!item) await Promise.all([this.workspace.list({}), this.listOpenDocuments()]);
      else if (item.canResolveChildren && item.uri) {
        // An unresolved folder (the workspace listing's budget did not reach it), or a test file
        // listed without its tests.
        item.busy = true;
        try {
          if (this.kinds.get(item.id) === 'folder') await this.workspace.list({ folder: item.uri });
          else await this.listUri(item.uri);
        } finally {
          item.busy = false;
        }
      }
    };
    this.controller.refreshHandler = async () => {
      await Promise.all([this.workspace.list({}), this.listOpenDocuments()]);
    };
    this.coverage = new CoverageFeature(coverageApi(), log);
    const runProfile = this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    this.coverage.attachTo(runProfile);
    this.backgroundProfile = runProfile;
    if (this.coverage.available) {
      const coverageProfile = this.controller.createRunProfile(
        'Run with Coverage',
        vscode.TestRunProfileKind.Coverage,
        (request, token) => this.run(request, token),
        true,
      );
      this.coverage.attachTo(coverageProfile);
      this.backgroundProfile = coverageProfile;
    }
    this.subscriptions.push(
      this.controller,
      this.workspace,
      vscode.workspace.onDidOpenTextDocument((doc) => void this.listDocument(doc)),
      vscode.workspace.onDidSaveTextDocument((doc) => void this.listDocument(doc)),
      vscode.commands.registerCommand(kTestingCommands.fix, (item?: vscode.TestItem) => this.fixFromTest(item)),
      vscode.commands.registerCommand(kTestingCommands.generate, (item?: vscode.TestItem) => this.generateFromTest(item)),
    );
  }

  // A running client: listen to its results and list the open documents' tests.
  attach(client: LanguageClient): void {
    this.detach();
    this.client = client;
    this.router = new RunRouter<vscode.TestRun>();
    this.clientSubscription = client.onNotification('greenlight/testResults', (params: TestResultsParams) => this.onResults(params));
    this.workspace.attach(client);
    void this.listOpenDocuments();
  }

  detach(): void {
    this.workspace.detach();
    this.clientSubscription?.dispose();
    this.clientSubscription = undefined;
    this.client = undefined;
  }

  dispose(): void {
    this.detach();
    for (const s of this.subscriptions) s.dispose();
  }

  // ---- the tree ------------------------------------------------------------------------------

  private async listOpenDocuments(): Promise<void> {
    await Promise.all(vscode.workspace.textDocuments.map((doc) => this.listDocument(doc)));
  }

  private async listDocument(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== 'file' || !this.languages.includes(doc.languageId)) return;
    await this.listUri(doc.uri);
  }

  private async listUri(uri: vscode.Uri): Promise<void> {
    const client = this.client;
    if (!client) return;
    let result: ListTestsResult | null;
    try {
      result = await client.sendRequest<ListTestsResult | null>('greenlight/listTests', {
        textDocument: { uri: client.code2ProtocolConverter.asUri(uri) },
      });
    } catch (e) {
      this.log(`testing: greenlight/listTests ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (client !== this.client || !result) return;
    this.merge(result.items, false);
  }

  // The workspace listing (workspaceTests.ts): its items merged as listTests's are, then what it
  // says is gone goes: in a folder walked whole, what it no longer lists; at changed paths, what
  // is no longer a test file there; folders left empty.
  mergeWorkspace(result: ListWorkspaceTestsResult, scope: WorkspaceScope): void {
    const listed = new Set(result.items.map((i) => i.id));
    const unresolved = result.items.filter((i) => isFolder(i) && i.resolved === false).map((i) => vscode.Uri.parse(i.uri).fsPath);
    const under = (item: vscode.TestItem, dir: string) => !!item.uri && (item.uri.fsPath === dir || item.uri.fsPath.startsWith(dir + '/'));
    const walked: string[] = [];
    if (scope.uris) walked.push(...scope.uris.map((u) => u.fsPath));
    else if (scope.folder) walked.push(scope.folder.fsPath);
    else {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      if (root) walked.push(root);
    }
    const stale: vscode.TestItem[] = [];
    for (const [id, item] of this.items) {
      const kind = this.kinds.get(id);
      if ((kind !== 'folder' && kind !== 'file') || listed.has(id) || !this.listedByWorkspace.has(id)) continue;
      if (walked.some((dir) => under(item, dir)) && !unresolved.some((dir) => under(item, dir))) stale.push(item);
    }
    for (const item of stale) if (this.items.get(item.id) === item) this.remove(item);
    this.merge(result.items, true);
    this.pruneEmptyFolders();
  }

  private pruneEmptyFolders(): void {
    for (let changed = true; changed; ) {
      changed = false;
      for (const [id, item] of this.items) {
        if (this.kinds.get(id) === 'folder' && item.children.size === 0 && !item.canResolveChildren) {
          this.remove(item);
          changed = true;
        }
      }
    }
  }

  private merge(items: readonly ListedItem[], fromWorkspace: boolean): void {
    const listedByFile = new Map<string, Set<string>>();
    items.forEach((listed, index) => {
      const uri = vscode.Uri.parse(listed.uri);
      let item = this.items.get(listed.id);
      let parent = listed.parent ? this.items.get(listed.parent) : undefined;
      // listTests knows no folders: a file the workspace listing put in its folder stays there.
      if (!fromWorkspace && listed.kind === 'file' && !listed.parent && item?.parent) parent = item.parent;
      if (item && item.parent !== parent) {
        this.remove(item);
        item = undefined;
      }
      if (!item) {
        item = this.controller.createTestItem(listed.id, listed.label, uri);
        (parent ? parent.children : this.controller.items).add(item);
        this.items.set(listed.id, item);
      }
      item.label = listed.label;
      this.kinds.set(listed.id, listed.kind);
      if (fromWorkspace && (listed.kind === 'file' || listed.kind === 'folder')) this.listedByWorkspace.add(listed.id);
      if (isFolder(listed)) {
        // Folders first, by name; an unresolved one is listed when the user expands it.
        item.sortText = `0${listed.label}`;
        if (listed.resolved !== undefined) item.canResolveChildren = !listed.resolved;
        return;
      }
      item.range = toRange(listed.range);
      item.sortText = listed.kind === 'file' ? `1${listed.label}` : String(index).padStart(6, '0');
      if (listed.kind === 'file') item.canResolveChildren = listed.resolved === false;
      this.dynamic.delete(listed.id);
      const file = fileOfId(listed.id);
      if (!listedByFile.has(file)) listedByFile.set(file, new Set());
      listedByFile.get(file)!.add(listed.id);
    });
    // Tests gone from a listed file go from the tree (a case stays: the listing never has them).
    for (const [file, listed] of listedByFile) {
      const fileItem = this.items.get(file);
      if (!fileItem) continue;
      const stale: vscode.TestItem[] = [];
      const walk = (item: vscode.TestItem) =>
        item.children.forEach((child) => {
          if (!listed.has(child.id) && !this.dynamic.has(child.id)) stale.push(child);
          else walk(child);
        });
      walk(fileItem);
      for (const item of stale) this.remove(item);
    }
  }

  private remove(item: vscode.TestItem): void {
    item.children.forEach((child) => this.remove(child));
    (item.parent ? item.parent.children : this.controller.items).delete(item.id);
    this.items.delete(item.id);
    this.kinds.delete(item.id);
    this.listedByWorkspace.delete(item.id);
    this.dynamic.delete(item.id);
  }

  // An item for a result the listing did not have (a parametrize case, a collection error).
  private itemFor(r: TestResultEntry, documentUri: string): vscode.TestItem | undefined {
    const known = this.items.get(r.id);
    if (known) return known;
    const parentId = placeFor(r, (id) => this.items.has(id));
    const parent = parentId ? this.items.get(parentId) : undefined;
    const uri = r.location?.uri ? vscode.Uri.parse(r.location.uri) : parent?.uri ?? vscode.Uri.parse(documentUri);
    const item = this.controller.createTestItem(r.id, r.label ?? r.id, uri);
    if (r.location && isCase(r.id)) item.range = parent?.range;
    else if (r.location) item.range = toRange(r.location.range);
    (parent ? parent.children : this.controller.items).add(item);
    this.items.set(r.id, item);
    this.kinds.set(r.id, isCase(r.id) ? 'case' : 'test');
    this.dynamic.add(r.id);
    return item;
  }

  // ---- runs ----------------------------------------------------------------------------------

  // The test file an item is in (or is): its file item's URI.
  private fileUriOf(item: vscode.TestItem): string | undefined {
    let top = item;
    while (top.parent && this.kinds.get(top.id) !== 'file') top = top.parent;
    return top.uri && this.client ? this.client.code2ProtocolConverter.asUri(top.uri) : undefined;
  }

  // A folder stands for the test files under it (those listed so far).
  private filesUnder(item: vscode.TestItem): vscode.TestItem[] {
    if (this.kinds.get(item.id) !== 'folder') return [item];
    const out: vscode.TestItem[] = [];
    item.children.forEach((child) => out.push(...this.filesUnder(child)));
    return out;
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const client = this.client;
    let notRun: vscode.TestItem[] = [];
    try {
      if (!client) {
        run.appendOutput(`${kProduct}: the server is not running.\r\n`);
        return;
      }
      const excluded = new Set((request.exclude ?? []).map((i) => i.id));
      const asked: vscode.TestItem[] = [];
      if (request.include) asked.push(...request.include);
      else this.controller.items.forEach((i) => asked.push(i));
      const chosen = asked.filter((i) => !excluded.has(i.id)).flatMap((i) => this.filesUnder(i)).filter((i) => !excluded.has(i.id));
      const enqueue = (item: vscode.TestItem) => {
        const kind = this.kinds.get(item.id);
        if (kind === 'test' || kind === 'case') run.enqueued(item);
        item.children.forEach(enqueue);
      };
      chosen.forEach(enqueue);
      const enqueued: vscode.TestItem[] = [];
      const collect = (item: vscode.TestItem) => {
        const kind = this.kinds.get(item.id);
        if (kind === 'test' || kind === 'case') enqueued.push(item);
        item.children.forEach(collect);
      };
      chosen.forEach(collect);
      notRun = enqueued;
      const specs = runRequests(
        chosen.flatMap((i) => {
          const fileUri = this.fileUriOf(i);
          const kind = this.kinds.get(i.id) ?? 'test';
          return fileUri && kind !== 'folder' ? [{ id: i.id, kind, fileUri }] : [];
        }),
      );
      await Promise.all(
        specs.map(async (spec) => {
          const source = new vscode.CancellationTokenSource();
          const cancel = token.onCancellationRequested(() => source.cancel());
          this.router.expect(run);
          try {
            await client.sendRequest(ExecuteCommandRequest.type, { command: 'greenlight.runTests', arguments: [spec] }, source.token);
          } catch (e) {
            if (!token.isCancellationRequested) run.appendOutput(`${kProduct}: ${e instanceof Error ? e.message : String(e)}\r\n`);
          } finally {
            this.router.forget(run);
            cancel.dispose();
            source.dispose();
          }
        }),
      );
    } finally {
      // Asked for but not reported (the file did not import, the run was cancelled): not run,
      // rather than showing an older run's state.
      this.skipUnreported(run, notRun);
      run.end();
    }
  }

  private skipUnreported(run: vscode.TestRun, items: readonly vscode.TestItem[]): void {
    const applied = this.applied.get(run);
    for (const item of items) {
      const key = applied?.get(item.id);
      if (key === undefined || key.startsWith('queued\u0000') || key.startsWith('started\u0000')) run.skipped(item);
    }
  }

  private onResults(params: TestResultsParams): void {
    const routed = this.router.route(params, () =>
      this.controller.createTestRun(new vscode.TestRunRequest(undefined, undefined, this.backgroundProfile), `${kProduct}: ${kTriggerNames[params.run.trigger] ?? params.run.trigger}`, false),
    );
    if (!routed) return;
    const { run } = routed;
    let applied = this.applied.get(run);
    if (!applied) {
      applied = new Map();
      this.applied.set(run, applied);
    }
    for (const r of params.results) {
      const item = this.itemFor(r, params.uri);
      if (!item) continue;
      if (r.status !== 'queued' && r.status !== 'started') this.lastResults.set(r.id, { result: r, documentUri: params.uri });
      // The last notification repeats the run's results: apply each change once.
      const key = `${r.status}\u0000${r.message ?? ''}\u0000${r.durationMs ?? ''}`;
      if (applied.get(r.id) === key) continue;
      applied.set(r.id, key);
      this.apply(run, item, r);
    }
    for (const note of runNotes(params.run)) run.appendOutput(`${kProduct}: ${note}\r\n`);
    if (params.run.coverageNote) this.log(`testing: ${params.run.coverageNote}`);
    if (params.run.state === 'finished') this.coverage.report(run, coverageOf(params.coverage, (why) => this.log(`testing: ${why}`)));
    if (params.run.state === 'finished' || params.run.state === 'cancelled') {
      this.router.end(params.run.id);
      if (!routed.ours) {
        const queued = [...applied.entries()].filter(([, key]) => key.startsWith('queued\u0000')).map(([id]) => this.items.get(id));
        this.skipUnreported(run, queued.filter((i): i is vscode.TestItem => i !== undefined));
        run.end();
      }
    }
  }

  private apply(run: vscode.TestRun, item: vscode.TestItem, r: TestResultEntry): void {
    const duration = typeof r.durationMs === 'number' ? r.durationMs : undefined;
    switch (runAction(r.status)) {
      case 'enqueued':
        return run.enqueued(item);
      case 'started':
        return run.started(item);
      case 'passed':
        return run.passed(item, duration);
      case 'skipped':
        return run.skipped(item);
      case 'failed':
        return run.failed(item, this.messages(r), duration);
      case 'errored':
        return run.errored(item, this.messages(r), duration);
    }
  }

  private messages(r: TestResultEntry): vscode.TestMessage[] {
    const spec = failureMessage(r);
    const message =
      spec.expected !== undefined && spec.actual !== undefined
        ? vscode.TestMessage.diff(spec.text, spec.expected, spec.actual)
        : new vscode.TestMessage(spec.text);
    if (spec.location) message.location = new vscode.Location(vscode.Uri.parse(spec.location.uri), toRange(spec.location.range));
    return [message];
  }

  // ---- Generate / Fix from a failed test -----------------------------------------------------

  // The greenlight diagnostic a failed test left: at its failing assertion, else one in the
  // run's document that names the test.
  private diagnosticFor(item: vscode.TestItem): { uri: vscode.Uri; diagnostic: vscode.Diagnostic } | undefined {
    const last = this.lastResults.get(item.id);
    if (!last) return undefined;
    const { result } = last;
    if (result.location) {
      const uri = vscode.Uri.parse(result.location.uri);
      const line = result.location.range.start.line;
      const d = vscode.languages.getDiagnostics(uri).find((d) => isFixable(d) && d.range.start.line === line);
      if (d) return { uri, diagnostic: d };
    }
    const documentUri = vscode.Uri.parse(last.documentUri);
    const label = item.label;
    const d = vscode.languages.getDiagnostics(documentUri).find((d) => isFixable(d) && d.message.includes(label));
    return d ? { uri: documentUri, diagnostic: d } : undefined;
  }

  private failedOrSay(item: vscode.TestItem | undefined): vscode.TestItem | undefined {
    if (!item) return undefined;
    const last = this.lastResults.get(item.id)?.result;
    if (!last || (last.status !== 'failed' && last.status !== 'errored')) {
      void vscode.window.showInformationMessage(`${kProduct}: ${item.label} does not fail; run it first.`);
      return undefined;
    }
    return item;
  }

  private async fixFromTest(arg?: vscode.TestItem): Promise<void> {
    const item = this.failedOrSay(arg);
    const runner = this.workRunner();
    const client = this.client;
    if (!item || !runner || !client) return;
    const found = this.diagnosticFor(item);
    if (!found) {
      void vscode.window.showInformationMessage(`${kProduct}: no greenlight diagnostic for ${item.label}; run it again.`);
      return;
    }
    const c2p = client.code2ProtocolConverter;
    await runner.run('greenlight.fix', [fixArguments(c2p.asUri(found.uri), c2p.asDiagnostic(found.diagnostic))]);
  }

  // greenlight.generate on the function the failing test exercises (its diagnostic in the code
  // under test: a stub, or a comment above where the code goes).
  private async generateFromTest(arg?: vscode.TestItem): Promise<void> {
    const item = this.failedOrSay(arg);
    const runner = this.workRunner();
    const client = this.client;
    if (!item || !runner || !client) return;
    const last = this.lastResults.get(item.id)!;
    const documentUri = vscode.Uri.parse(last.documentUri);
    const inSource = vscode.languages.getDiagnostics(documentUri).find((d) => isFixable(d) && d.message.includes(item.label));
    const found = inSource ? { uri: documentUri, diagnostic: inSource } : this.diagnosticFor(item);
    if (!found) {
      void vscode.window.showInformationMessage(`${kProduct}: no greenlight diagnostic for ${item.label}; run it again.`);
      return;
    }
    const c2p = client.code2ProtocolConverter;
    await runner.run('greenlight.generate', [{ uri: c2p.asUri(found.uri), position: c2p.asPosition(found.diagnostic.range.start) }]);
  }
}
