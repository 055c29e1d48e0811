// Tests first (issue 36): what the extension reads from a `tests_proposed` result of
// greenlight.generate, the words it shows for it, and the arguments of the second
// greenlight.generate that accepts it.
//
// Pure functions (no 'vscode' import) so the contract is unit-tested without VS Code; the preview
// itself is testsPreview.ts. The server proposes tests when the target has none nearby and no
// runnable examples in its comment (generate.testsFirst `ask`/`always`); it writes nothing.
// Accepting sends the same uri/position plus `tests: {uri, text}`, where text is the WHOLE text
// the test file is to have (the user's edit, if any); the server then generates against those
// tests and lands test file and code as one workspace edit.

export interface FlaggedTest {
  readonly name: string;
  // 1-based line in the proposed text, when the server knows it.
  readonly line?: number;
  readonly message: string;
}

export interface TestsProposal {
  readonly uri: string;
  readonly file: string;
  readonly exists: boolean;
  readonly text: string;
  // The test file's current text when it exists (the left side of the diff).
  readonly original?: string;
  readonly count: number;
  readonly names: readonly string[];
  // Tests that pass on the stub: they assert nothing about the target.
  readonly flagged: readonly FlaggedTest[];
  // A sentence when the proposal does not collect or run; the proposal is still shown.
  readonly error?: string;
  // The target's name, from the result's `target`.
  readonly target?: string;
}

export type TestsDecision = { readonly accept: true; readonly text: string } | { readonly accept: false };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isTestsProposed(result: unknown): boolean {
  return isObject(result) && result.status === 'tests_proposed';
}

// The proposal in a `tests_proposed` result; a string saying what is wrong with it when the
// result is one but malformed (shown to the user: the server's contract was broken); undefined
// for any other result.
export function parseProposal(result: unknown): TestsProposal | string | undefined {
  if (!isTestsProposed(result)) return undefined;
  const r = result as Record<string, unknown>;
  const t = r.tests;
  if (!isObject(t)) return 'the proposal has no "tests" object';
  if (typeof t.uri !== 'string' || t.uri === '') return 'tests.uri: expected a non-empty string';
  if (typeof t.text !== 'string') return 'tests.text: expected a string';
  const names = Array.isArray(t.names) ? t.names.filter((n): n is string => typeof n === 'string') : [];
  const flagged: FlaggedTest[] = [];
  for (const f of Array.isArray(t.flagged) ? t.flagged : []) {
    if (!isObject(f) || typeof f.name !== 'string') continue;
    flagged.push({
      name: f.name,
      ...(typeof f.line === 'number' && f.line >= 1 ? { line: f.line } : {}),
      message: typeof f.message === 'string' && f.message !== '' ? f.message : 'passes on the stub',
    });
  }
  const target = isObject(r.target) && typeof r.target.name === 'string' && r.target.name !== '' ? r.target.name : undefined;
  return {
    uri: t.uri,
    file: typeof t.file === 'string' && t.file !== '' ? t.file : t.uri,
    exists: t.exists === true,
    text: t.text,
    ...(typeof t.original === 'string' ? { original: t.original } : {}),
    count: typeof t.count === 'number' && t.count >= 0 ? t.count : names.length,
    names,
    flagged,
    ...(typeof t.error === 'string' && t.error !== '' ? { error: t.error } : {}),
    ...(target ? { target } : {}),
  };
}

export function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export const kAccept = 'Accept tests and generate';
export const kEdit = 'Edit';
export const kCancel = 'Cancel';

// The notification shown beside the preview: what was proposed, where it goes, and what is
// wrong with it (flagged tests first: they are the reason to edit before accepting).
export function proposalMessage(p: TestsProposal): { text: string; warning: boolean } {
  const who = p.target ? `${p.target}: ` : '';
  const where = `${baseName(p.file)}${p.exists ? '' : ' (new file)'}`;
  const parts = [`${who}${plural(p.count, 'test')} proposed from the comment for ${where}. Nothing is written until you accept.`];
  if (p.flagged.length > 0) {
    const list = p.flagged.map((f) => `${f.name}${f.line ? ` (line ${f.line})` : ''}: ${f.message}`).join('; ');
    parts.push(`${p.flagged.length === 1 ? '1 test passes' : `${p.flagged.length} tests pass`} on the stub: ${list}.`);
  }
  if (p.error) parts.push(`The proposal does not run: ${p.error}`);
  return { text: parts.join(' '), warning: p.flagged.length > 0 || p.error !== undefined };
}

// The arguments of the greenlight.generate that accepts `text` as the test file's whole text:
// the first argument's uri/position (and anything else it carried) plus `tests`.
export function acceptArguments(args: readonly unknown[], uri: string, text: string): unknown[] {
  const first = isObject(args[0]) ? args[0] : {};
  return [{ ...first, tests: { uri, text } }, ...args.slice(1)];
}

// The same text with the line endings a document may have turned it into undone: the server
// compares and writes LF text, whatever the editor's EOL setting.
export function normalizeText(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
