// The coverage of greenlight's runs in VS Code's Testing view (issue 35): each covered file of a
// finished greenlight/testResults becomes a FileCoverage on the run's TestRun (the "Test
// Coverage" view, the percent in the explorer) and its lines StatementCoverage (the gutter when
// the user turns coverage on in an editor).
//
// The test coverage API is stable since VS Code 1.88; the extension still installs on 1.82
// (package.json engines), so the API is looked up at run time and typed here, and on an older
// VS Code coverage is simply not shown (the not-run diagnostics and CodeLens text still come
// from the server as plain LSP).
//
// Threading: VS Code calls everything here on the extension host's one thread.
import * as vscode from 'vscode';
import { FileLines } from './coverageModel';

// The parts of the API used (vscode.d.ts 1.88: FileCoverage, TestCoverageCount,
// StatementCoverage, TestRun.addCoverage, TestRunProfile.loadDetailedCoverage).
interface TestCoverageCount {
  covered: number;
  total: number;
}
export interface FileCoverageLike {
  readonly uri: vscode.Uri;
  statementCoverage: TestCoverageCount;
}
type StatementCoverageLike = unknown;
export interface CoverageApi {
  FileCoverage: new (uri: vscode.Uri, statementCoverage: TestCoverageCount) => FileCoverageLike;
  TestCoverageCount: new (covered: number, total: number) => TestCoverageCount;
  StatementCoverage: new (executed: number | boolean, location: vscode.Position | vscode.Range) => StatementCoverageLike;
}
type LoadDetails = (run: vscode.TestRun, file: FileCoverageLike, token: vscode.CancellationToken) => Thenable<StatementCoverageLike[]>;
interface CoverageRun {
  addCoverage?: (file: FileCoverageLike) => void;
}
interface CoverageProfile {
  loadDetailedCoverage?: LoadDetails;
}

// The API when this VS Code has it, else undefined.
export function coverageApi(module: unknown = vscode): CoverageApi | undefined {
  const m = module as Partial<CoverageApi>;
  return typeof m.FileCoverage === 'function' && typeof m.TestCoverageCount === 'function' && typeof m.StatementCoverage === 'function'
    ? (m as CoverageApi)
    : undefined;
}

// Line lengths of a document, to give each statement its whole line as range (the editor
// highlights that); undefined when the document cannot be read (a statement is then a position).
export type LineLength = (line: number) => number | undefined;

// The StatementCoverage of one file: one per executable line, with its hit count.
export function statements(api: CoverageApi, file: FileLines, lineLength: LineLength | undefined): StatementCoverageLike[] {
  return file.statements.map(({ line, count }) => {
    const length = lineLength?.(line);
    const at = length === undefined ? new vscode.Position(line, 0) : new vscode.Range(line, 0, line, length);
    return new api.StatementCoverage(count, at);
  });
}

export class CoverageFeature {
  // What each reported FileCoverage was made from, for loadDetailedCoverage.
  private readonly details = new WeakMap<FileCoverageLike, FileLines>();

  constructor(
    private readonly api: CoverageApi | undefined,
    private readonly log: (line: string) => void,
    private readonly toUri: (uri: string) => vscode.Uri = (uri) => vscode.Uri.parse(uri, true),
  ) {}

  get available(): boolean {
    return this.api !== undefined;
  }

  // Lets the Testing view ask a profile's runs for their per-line coverage.
  attachTo(profile: vscode.TestRunProfile): void {
    if (!this.api) return;
    (profile as unknown as CoverageProfile).loadDetailedCoverage = (_run, file, token) => this.loadDetails(file, token);
  }

  // Adds the files of a finished notification to `run` (before it ends: VS Code drops coverage
  // added later). Returns how many were added.
  report(run: vscode.TestRun, files: readonly FileLines[]): number {
    const api = this.api;
    const add = (run as unknown as CoverageRun).addCoverage;
    if (!api || typeof add !== 'function' || files.length === 0) return 0;
    let added = 0;
    for (const f of files) {
      let uri: vscode.Uri;
      try {
        uri = this.toUri(f.uri);
      } catch (e) {
        this.log(`coverage: ignored ${f.uri}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const coverage = new api.FileCoverage(uri, new api.TestCoverageCount(f.covered, f.total));
      this.details.set(coverage, f);
      add.call(run, coverage);
      added++;
    }
    return added;
  }

  private async loadDetails(file: FileCoverageLike, token: vscode.CancellationToken): Promise<StatementCoverageLike[]> {
    const lines = this.details.get(file);
    if (!this.api || !lines) return [];
    let lineLength: LineLength | undefined;
    try {
      const doc: vscode.TextDocument | undefined = await vscode.workspace.openTextDocument(file.uri);
      if (doc) lineLength = (line) => (line < doc.lineCount ? doc.lineAt(line).text.length : undefined);
    } catch {
      lineLength = undefined;  // a deleted file still shows its counts, at line starts
    }
    if (token.isCancellationRequested) return [];
    return statements(this.api, lines, lineLength);
  }
}
