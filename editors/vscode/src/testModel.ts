// The wire of the server's test-view methods (README "The language server: commands and test
// views") and the decisions the Testing view makes from it, without the 'vscode' module so they
// are unit-tested: where an item goes in the tree, what a result does to a TestRun, what its
// TestMessage says, which of our own runs a server run belongs to.
//
//   greenlight/listTests     {textDocument: {uri}} -> {uri, items: ListedTest[]}
//   greenlight/listWorkspaceTests {folder?: uri, uris?: uri[]} -> {items: ListedItem[], truncated}
//   greenlight/testResults   {uri, run: {id, trigger, state, error?, coverageNote?}, results: TestResultEntry[],
//                             coverage?: [{uri, lines: [[line, count], ...]}] (finished runs; coverageModel.ts)}

export interface Pos {
  line: number;
  character: number;
}
export interface Range {
  start: Pos;
  end: Pos;
}

export type TestKind = 'file' | 'group' | 'test' | 'case';
// A tree item's kind: a test's, or a folder of the workspace listing.
export type ItemKind = TestKind | 'folder';

export interface ListedTest {
  id: string;
  label: string;
  kind: TestKind;
  uri: string;
  range: Range;
  parent: string | null;
  // Workspace listing only: false on a test file listed without its tests (the server's time
  // budget ran out); greenlight/listTests gives them when the user expands it.
  resolved?: boolean;
}

export interface ListTestsResult {
  uri: string;
  items: ListedTest[];
}

// An item of the workspace listing: a test item as above, or a folder ("tests/unit/") that holds
// test files. `resolved`: true when the answer holds all of the folder, false when the server's
// budget did not reach it (list it as the user expands it), absent for a folder the answer only
// passed through (a changed file's).
export interface ListedFolder {
  id: string;
  label: string;
  kind: 'folder';
  uri: string;
  parent: string | null;
  resolved?: boolean;
}
export type ListedItem = ListedTest | ListedFolder;

export interface ListWorkspaceTestsResult {
  items: ListedItem[];
  truncated: boolean;
}

export function isFolder(item: ListedItem): item is ListedFolder {
  return item.kind === 'folder';
}

// Paths a file watcher reports that never hold a project's tests (the server skips the same and
// more): not worth a request. `relative` is the path below the workspace folder, '/'-separated.
const kUnwatchedSegments = new Set(['node_modules', '__pycache__', 'site-packages', 'dist', 'build', 'out', 'target', 'coverage']);
export function isWatchedPath(relative: string): boolean {
  return !relative
    .split('/')
    .some((seg) => seg.startsWith('.') || kUnwatchedSegments.has(seg) || seg.startsWith('build-') || seg.startsWith('cmake-build-'));
}

// Collects changed paths and hands them over together once they stop coming for `delayMs`
// (a git checkout or a formatter touches many files at once: one request, not hundreds).
export class ChangeBatch {
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly flush: (uris: string[]) => void,
  ) {}

  add(uri: string): void {
    this.pending.add(uri);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.delayMs);
  }

  fire(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const uris = [...this.pending];
    this.pending.clear();
    this.flush(uris);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}

export type TestStatus = 'queued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';

export interface TestResultEntry {
  id: string;
  label?: string;
  parent?: string | null;
  status: TestStatus;
  outcome?: string;
  durationMs?: number;
  message?: string;
  expected?: string;
  actual?: string;
  location?: { uri: string; range: Range };
}

export type Trigger = 'runTests' | 'save' | 'generate' | 'fix';
export type RunState = 'started' | 'running' | 'finished' | 'cancelled';

export interface TestResultsParams {
  uri: string;
  run: { id: number; trigger: Trigger; state: RunState; error?: string; coverageNote?: string };
  results: TestResultEntry[];
  // Checked by coverageOf before use: it comes from the wire.
  coverage?: unknown;
}

// What a notification says of its run as a whole, for the run's output (the Test Results
// panel): its error, and why a finished run has no coverage when greenlight dropped it to let the
// run finish (a tracer that made the suite run out of time).
export function runNotes(run: TestResultsParams['run']): string[] {
  const notes: string[] = [];
  for (const note of [run.error, run.coverageNote]) if (typeof note === 'string' && note !== '') notes.push(note);
  return notes;
}

// The file part of an id ("tests/test_m.py::TestA::test_b" -> "tests/test_m.py").
export function fileOfId(id: string): string {
  const sep = id.indexOf('::');
  return sep < 0 ? id : id.slice(0, sep);
}

// Where an item of a result that the listing did not have goes: under its parent when that is
// known, else under its file, else at the top.
export function placeFor(entry: { id: string; parent?: string | null }, known: (id: string) => boolean): string | undefined {
  if (entry.parent && known(entry.parent)) return entry.parent;
  const file = fileOfId(entry.id);
  if (file !== entry.id && known(file)) return file;
  return undefined;
}

// Is this id a parametrize case ("...::test_b[1-2]")?
export function isCase(id: string): boolean {
  return /\]$/.test(id) && id.includes('[') && /\.py::/.test(id);
}

// What a result does to a TestRun (VS Code's TestRun.enqueued/started/passed/failed/errored/skipped).
export type RunAction = 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
export function runAction(status: TestStatus): RunAction {
  switch (status) {
    case 'queued':
      return 'enqueued';
    case 'started':
      return 'started';
    case 'passed':
      return 'passed';
    case 'failed':
      return 'failed';
    case 'errored':
      return 'errored';
    case 'skipped':
      return 'skipped';
  }
}

// The TestMessage of a failed or errored result: a diff (VS Code's "expected / actual" editor)
// when the runner rendered both sides, else the message; placed at the failing assertion.
export interface MessageSpec {
  text: string;
  expected?: string;
  actual?: string;
  location?: { uri: string; range: Range };
}
export function failureMessage(r: TestResultEntry): MessageSpec {
  let text = r.message ?? (r.status === 'errored' ? 'the test did not complete' : 'the test failed');
  if (r.outcome === 'timeout' && !/time/i.test(text)) text = `timeout: ${text}`;
  const spec: MessageSpec = { text };
  if (r.expected !== undefined && r.actual !== undefined) {
    spec.expected = r.expected;
    spec.actual = r.actual;
  }
  if (r.location) spec.location = r.location;
  return spec;
}

// The arguments of greenlight.runTests for a set of items: one request per file, with the ids
// asked for (none when the whole file is asked for).
export interface RunRequestSpec {
  uri: string;
  tests?: string[];
}
export function runRequests(items: readonly { id: string; kind: TestKind; fileUri: string }[]): RunRequestSpec[] {
  const byFile = new Map<string, { whole: boolean; ids: string[] }>();
  for (const item of items) {
    const entry = byFile.get(item.fileUri) ?? { whole: false, ids: [] };
    if (item.kind === 'file') entry.whole = true;
    else if (!entry.ids.includes(item.id)) entry.ids.push(item.id);
    byFile.set(item.fileUri, entry);
  }
  return [...byFile.entries()].map(([uri, e]) => (e.whole || e.ids.length === 0 ? { uri } : { uri, tests: e.ids }));
}

// Server runs started by our greenlight.runTests requests belong to the TestRun of the request;
// the others (a save, a generation) get a TestRun of their own. Our requests are matched to the
// server's runs in the order they were sent: the server starts a run per request, in order.
export class RunRouter<R> {
  private readonly waiting: R[] = [];
  private readonly byServerRun = new Map<number, { run: R; ours: boolean }>();

  // A request of ours was sent; its server run will be the next `runTests` one to start.
  expect(run: R): void {
    this.waiting.push(run);
  }

  // Our request ended before its run was seen (an argument error): stop waiting for it.
  forget(run: R): void {
    const i = this.waiting.indexOf(run);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  // The TestRun for a notification: ours, or a new one from `create` (for runs we did not
  // start). Undefined after the server run ended.
  route(params: TestResultsParams, create: () => R): { run: R; ours: boolean } | undefined {
    const known = this.byServerRun.get(params.run.id);
    if (known) return known;
    if (params.run.state !== 'started' && params.run.state !== 'running' && params.results.length === 0) return undefined;
    let entry: { run: R; ours: boolean };
    if (params.run.trigger === 'runTests' && this.waiting.length > 0) entry = { run: this.waiting.shift()!, ours: true };
    else entry = { run: create(), ours: false };
    this.byServerRun.set(params.run.id, entry);
    return entry;
  }

  // The server run ended.
  end(serverRunId: number): void {
    this.byServerRun.delete(serverRunId);
  }
}
