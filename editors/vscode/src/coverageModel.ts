// The coverage a finished greenlight/testResults carries (issue 35), without the 'vscode' module
// so it is unit-tested: the wire is checked here once, and what the Testing view shows (covered
// of total, the line of each statement) is derived from it.
//
//   greenlight/testResults {..., run: {state: "finished"}, coverage?: [{uri, lines: [[line, count], ...]}]}
//
// `lines` holds every executable line of the file (1-based) with its hit count, 0 = executable
// but no test ran it; lines that are no code are absent. The key is absent when nothing was
// measured (GREENLIGHT_COVERAGE=0, a runner without a collector).

export interface CoverageEntry {
  uri: string;
  lines: [number, number][];
}

// One covered file, checked: lines 0-based (VS Code's), sorted, one entry per line.
export interface FileLines {
  uri: string;
  statements: { line: number; count: number }[];
  covered: number;
  total: number;
}

// The checked coverage of a notification: malformed entries (a bad uri, a line that is no
// positive integer, a negative count) are dropped with a reason rather than shown wrong; a
// line given twice counts once with its counts summed (the contract says one per line, so this
// only guards against a runner that reports a file twice).
export function coverageOf(raw: unknown, problem: (why: string) => void = () => undefined): FileLines[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problem(`coverage: expected a list, got ${typeof raw}`);
    return [];
  }
  const out: FileLines[] = [];
  raw.forEach((entry: unknown, i) => {
    const e = entry as Partial<CoverageEntry> | null;
    if (!e || typeof e.uri !== 'string' || e.uri === '' || !Array.isArray(e.lines)) {
      problem(`coverage[${i}]: expected {uri, lines}`);
      return;
    }
    const counts = new Map<number, number>();
    for (const pair of e.lines as unknown[]) {
      const [line, count] = Array.isArray(pair) ? (pair as unknown[]) : [];
      if (!Number.isInteger(line) || (line as number) < 1 || !Number.isInteger(count) || (count as number) < 0) {
        problem(`coverage[${i}] (${e.uri}): ignored the entry ${JSON.stringify(pair)}; expected [line >= 1, count >= 0]`);
        continue;
      }
      const zeroBased = (line as number) - 1;
      counts.set(zeroBased, (counts.get(zeroBased) ?? 0) + (count as number));
    }
    const statements = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([line, count]) => ({ line, count }));
    out.push({ uri: e.uri, statements, covered: statements.filter((s) => s.count > 0).length, total: statements.length });
  });
  return out;
}

// "9/12 lines run", as the CodeLens and the Neovim summary say it.
export function linesRunText(f: { covered: number; total: number }): string {
  return `${f.covered}/${f.total} lines run`;
}

// The 0-based lines no test ran.
export function notRunLines(f: FileLines): number[] {
  return f.statements.filter((s) => s.count === 0).map((s) => s.line);
}
