// Which diagnostic "Greenlight: Fix Failing Test" fixes, and the arguments of greenlight.fix.
//
// Pure (no 'vscode' import): it works on anything shaped like vscode.Diagnostic, so the choice is
// unit-tested. The server offers greenlight.fix on its diagnostics of these codes
// (lsp-generate-contract "Code actions"); the palette command offers the same set.

export const kFixableCodes: readonly string[] = ['test-failed', 'runtime-error', 'timeout', 'memory-limit', 'compile-error'];

export interface Pos {
  readonly line: number;
  readonly character: number;
}

export interface DiagnosticLike {
  readonly range: { readonly start: Pos; readonly end: Pos };
  readonly source?: string;
  readonly code?: string | number | { readonly value: string | number };
}

export function diagnosticCode(d: DiagnosticLike): string | undefined {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  return code === undefined ? undefined : String(code);
}

export function isFixable(d: DiagnosticLike): boolean {
  const code = diagnosticCode(d);
  return d.source === 'greenlight' && code !== undefined && kFixableCodes.includes(code);
}

function compare(a: Pos, b: Pos): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

function contains(d: DiagnosticLike, p: Pos): boolean {
  return compare(d.range.start, p) <= 0 && compare(p, d.range.end) <= 0;
}

// Lines between the cursor and the diagnostic; 0 when the cursor's line is inside its lines.
function lineDistance(d: DiagnosticLike, p: Pos): number {
  if (p.line < d.range.start.line) return d.range.start.line - p.line;
  if (p.line > d.range.end.line) return p.line - d.range.end.line;
  return 0;
}

function span(d: DiagnosticLike): [number, number] {
  return [d.range.end.line - d.range.start.line, d.range.end.character - d.range.start.character];
}

// The fixable greenlight diagnostic under the cursor (the narrowest, when they nest), else the
// nearest by lines (the first published wins a tie); undefined when there is none.
export function pickDiagnostic<T extends DiagnosticLike>(diagnostics: readonly T[], cursor: Pos): T | undefined {
  const fixable = diagnostics.filter(isFixable);
  const under = fixable.filter((d) => contains(d, cursor));
  if (under.length > 0) {
    return under.reduce((best, d) => {
      const [a, b] = [span(d), span(best)];
      return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? d : best;
    });
  }
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const d of fixable) {
    const distance = lineDistance(d, cursor);
    if (distance < bestDistance) {
      best = d;
      bestDistance = distance;
    }
  }
  return best;
}

// greenlight.fix's argument: the diagnostic as the server published it (its `data` carries the
// failing test, expected/actual, frames), and its start as the position.
export function fixArguments<D extends { range: { start: Pos } }>(uri: string, diagnostic: D): { uri: string; position: Pos; diagnostic: D } {
  return { uri, position: { line: diagnostic.range.start.line, character: diagnostic.range.start.character }, diagnostic };
}
