// The words the extension shows for server work: the status bar item while it runs, the
// notification's title, and the one-line outcome when it ends.
//
// Pure functions (no 'vscode' import) so the exact texts are unit-tested; they are also what the
// real-VS-Code lane asserts on, so change them together with its scenarios. The inputs are the
// server's $/progress texts (lsp-generate-contract: begin title "Generating slugify()" |
// "Fixing slugify()", reports "round 2/3: running 7 tests", end "slugify: 7/7 tests passed in 2
// rounds") and the command's result, the `greenlight generate --json` object.

export const kProduct = 'Greenlight';

// What the status bar needs to know about one piece of running work.
export interface WorkView {
  readonly title: string;
  readonly message?: string;
  readonly percentage?: number;
  readonly cancellable: boolean;
  // The server has not sent `begin` yet (work the extension started itself).
  readonly started: boolean;
  // Cancel was asked for; the server has not answered yet.
  readonly cancelling: boolean;
}

export interface Round {
  readonly round: number;
  readonly of: number;
  // What the round is doing: "asking the model", "running 7 tests", "5/7 passed".
  readonly detail: string;
}

// "round 2/3: running 7 tests" -> {round: 2, of: 3, detail: "running 7 tests"}.
export function parseRound(message: string | undefined): Round | undefined {
  const m = /^round (\d+)\/(\d+)(?::\s*(.*))?$/s.exec(message ?? '');
  if (!m) return undefined;
  return { round: Number(m[1]), of: Number(m[2]), detail: m[3] ?? '' };
}

// "Generating slugify()" / "Fixing Stack::push()" -> the function's name; undefined for titles
// that name no function ("Running tests", "Generating code").
export function targetName(title: string): string | undefined {
  const m = /^(?:Generating|Fixing|Implementing)\s+(\S+?)\(\)$/.exec(title.trim());
  return m?.[1];
}

function label(work: WorkView): string {
  const name = targetName(work.title);
  const round = parseRound(work.message);
  if (work.cancelling) return `${name ?? work.title}: cancelling…`;
  if (!work.started) return `${kProduct}: ${work.title.toLowerCase()}…`;
  if (name && round) return `${name}: round ${round.round}/${round.of}`;
  if (name) return name;
  const pct = work.percentage !== undefined ? ` ${Math.round(work.percentage)}%` : '';
  return `${kProduct}: ${work.title}${pct}`;
}

export interface StatusText {
  readonly text: string;
  readonly tooltip: string;
  // Clicking the item cancels the shown work.
  readonly cancellable: boolean;
}

// The status bar while work runs: the newest piece of work, "(+N)" for the others.
// `$(sync~spin) slugify: round 2/3`, `$(sync~spin) Greenlight: Running tests 40%`.
export function statusText(work: readonly WorkView[]): StatusText | undefined {
  const current = work[work.length - 1];
  if (!current) return undefined;
  const more = work.length > 1 ? ` (+${work.length - 1})` : '';
  const cancellable = current.cancellable && !current.cancelling;
  const lines = [`${kProduct}: ${current.title}`];
  if (current.message) lines.push(current.message);
  if (cancellable) lines.push('Click to cancel.');
  return { text: `$(sync~spin) ${label(current)}${more}`, tooltip: lines.join('\n'), cancellable };
}

export function notificationTitle(title: string): string {
  return `${kProduct}: ${title}`;
}

// The status bar message when server-started work (a test run, a "Retry with more rounds")
// ends: the end message names its function already ("slugify: 7/7 tests passed in 2 rounds"),
// a test run's does not ("1 passed, 0 failed").
export function endText(title: string, message: string): string {
  const name = targetName(title);
  if (name && message.startsWith(`${name}:`)) return `$(beaker) ${message}`;
  return `$(beaker) ${kProduct}: ${title}: ${message}`;
}

// The fields of the `generate --json` object the extension reads.
export interface GenerateResult {
  status: 'passed' | 'failed' | 'unverified' | 'cancelled' | 'error' | 'tests_proposed';
  applied?: boolean;
  // Tests first (issue 36): the proposal (`tests_proposed`), or the tests that landed with the code.
  tests?: { count?: number; new?: boolean } | null;
  target?: { name?: string } | null;
  summary?: { rounds?: number; passed?: number; failed?: number } | null;
  rounds?: { candidates?: { passed?: number; failed?: number; errors?: number }[] }[] | null;
  error?: string | null;
}

const kStatuses = new Set(['passed', 'failed', 'unverified', 'cancelled', 'error', 'tests_proposed']);

export function isGenerateResult(value: unknown): value is GenerateResult {
  return typeof value === 'object' && value !== null && kStatuses.has((value as { status?: unknown }).status as string);
}

export type WorkKind = 'generate' | 'fix';

export interface Outcome {
  // The status bar message: icon + one line.
  readonly text: string;
  // A line for the output channel, with what the status bar leaves out.
  readonly log: string;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// The best candidate's score over all rounds, "5/7", from the result's rounds.
function bestScore(result: GenerateResult): string | undefined {
  let best: { passed: number; total: number } | undefined;
  for (const round of result.rounds ?? []) {
    for (const c of round.candidates ?? []) {
      const passed = c.passed ?? 0;
      const total = passed + (c.failed ?? 0) + (c.errors ?? 0);
      if (total > 0 && (!best || passed > best.passed)) best = { passed, total };
    }
  }
  return best ? `${best.passed}/${best.total}` : undefined;
}

// The one line shown when a generate/fix the extension started has ended. `endMessage` is the
// server's $/progress end message when one came (preferred: it is the server's own summary).
export function outcomeText(kind: WorkKind, result: unknown, endMessage: string | undefined): Outcome {
  const what = kind === 'generate' ? 'generation' : 'fix';
  if (!isGenerateResult(result)) {
    const text = endMessage ? `$(info) ${endMessage}` : `$(info) ${kProduct}: ${what} finished`;
    return { text, log: `${what}: finished without a result object (${JSON.stringify(result) ?? 'undefined'})` };
  }
  const name = result.target?.name || undefined;
  const who = name ?? `${kProduct}: ${what}`;
  const s = result.summary ?? {};
  const passed = s.passed ?? 0;
  const total = passed + (s.failed ?? 0);
  const rounds = s.rounds ?? result.rounds?.length ?? 0;
  const log = (line: string) => `${what}${name ? ` of ${name}()` : ''}: ${line}`;
  switch (result.status) {
    case 'passed': {
      const fresh = result.tests?.new === true && typeof result.tests.count === 'number' ? `${plural(result.tests.count, 'new test')}, ` : '';
      const summary = endMessage ?? (fresh ? `${who}: ${fresh}${total}/${total} passed` : `${who}: ${total}/${total} tests passed in ${plural(rounds, 'round')}`);
      if (result.applied === false) {
        return { text: `$(info) ${summary}; not applied`, log: log(`passed, but the edit was not applied (rejected in the preview, or the code changed meanwhile)`) };
      }
      return { text: `$(pass) ${summary}`, log: log(`passed (${total}/${total} tests, ${plural(rounds, 'round')}), applied`) };
    }
    case 'failed': {
      const best = bestScore(result) ?? (total > 0 ? `${passed}/${total}` : undefined);
      const summary = endMessage ?? `${who}: no candidate passed${best ? ` (best ${best})` : ''}`;
      return { text: `$(error) ${summary}`, log: log(`no candidate passed in ${plural(rounds, 'round')}${best ? `, best ${best}` : ''}; nothing applied`) };
    }
    case 'unverified':
      return {
        text: `$(warning) ${who}: unverified (no tests found)${result.applied ? '' : '; not applied'}`,
        log: log(`no tests found, the code is unverified${result.applied ? '; applied after confirmation' : '; nothing applied'}`),
      };
    case 'tests_proposed': {
      const count = typeof result.tests?.count === 'number' ? plural(result.tests.count, 'test') : 'tests';
      return { text: `$(beaker) ${who}: ${count} proposed; nothing written yet`, log: log(`no tests found: ${count} proposed for review; nothing written`) };
    }
    case 'cancelled':
      return { text: `$(circle-slash) ${who}: cancelled; nothing applied`, log: log('cancelled; nothing applied') };
    case 'error': {
      const error = result.error ? firstLine(result.error) : 'failed';
      return { text: `$(error) ${kProduct}: ${error}`, log: log(`error: ${result.error ?? '(no message)'}`) };
    }
  }
}

// The outcome when the request was answered -32800 (cancelled from the notification, the
// status bar, Greenlight: Cancel, or superseded by a newer run on the same target).
export function cancelledText(kind: WorkKind, title: string | undefined): Outcome {
  const name = title ? targetName(title) : undefined;
  const what = kind === 'generate' ? 'generation' : 'fix';
  return {
    text: `$(circle-slash) ${name ?? `${kProduct}: ${what}`}: cancelled; nothing applied`,
    log: `${what}${name ? ` of ${name}()` : ''}: cancelled (-32800); nothing applied`,
  };
}
