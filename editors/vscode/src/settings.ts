// The "greenlight" settings: their schema, their validation, and the object sent to the server.
//
// This is the ONE place settings are validated. It deliberately does not import 'vscode' so the
// unit tests can run it under plain node: callers hand in anything shaped like
// vscode.WorkspaceConfiguration.inspect().
//
// Only values the user actually set are forwarded to the server. The server layers its
// configuration (defaults < environment < .greenlight.json < initializationOptions <
// workspace/configuration); forwarding VS Code's defaults for unset keys would silently
// override the project's .greenlight.json, so unset keys are left out and the lower layers win.

export type SettingKind =
  | { type: 'enum'; values: readonly string[] }
  | { type: 'string'; nullable: boolean }
  | { type: 'number'; integer: boolean; minimum?: number; exclusiveMinimum?: number; maximum?: number; nullable?: boolean }
  | { type: 'boolean' }
  | { type: 'stringArray'; nullable: boolean };

export interface SettingSpec {
  // Relative to the "greenlight" section, dotted: "sandbox.timeLimitSeconds".
  readonly key: string;
  readonly kind: SettingKind;
  readonly defaultValue: unknown;
  // false for settings of the extension itself (server.path, ...): never sent to the server.
  readonly forServer: boolean;
}

const str = (nullable = false): SettingKind => ({ type: 'string', nullable });
const int = (minimum: number, maximum?: number): SettingKind =>
  maximum === undefined ? { type: 'number', integer: true, minimum } : { type: 'number', integer: true, minimum, maximum };
const positive = (maximum?: number): SettingKind =>
  maximum === undefined
    ? { type: 'number', integer: false, exclusiveMinimum: 0 }
    : { type: 'number', integer: false, exclusiveMinimum: 0, maximum };
const bool = (): SettingKind => ({ type: 'boolean' });
// null = let the server fit the value (sandbox.timeLimitSeconds: 10 s narrowed, more for a whole file).
const positiveOrNull = (): SettingKind => ({ type: 'number', integer: false, exclusiveMinimum: 0, nullable: true });

export const SETTINGS: readonly SettingSpec[] = [
  { key: 'server.path', kind: str(), defaultValue: '', forServer: false },
  { key: 'server.extraArgs', kind: { type: 'stringArray', nullable: false }, defaultValue: [], forServer: false },
  { key: 'trace.server', kind: { type: 'enum', values: ['off', 'messages', 'verbose'] }, defaultValue: 'off', forServer: false },
  { key: 'provider', kind: { type: 'enum', values: ['auto', 'openai', 'anthropic'] }, defaultValue: 'auto', forServer: true },
  { key: 'baseUrl', kind: str(true), defaultValue: null, forServer: true },
  { key: 'model', kind: str(true), defaultValue: null, forServer: true },
  { key: 'apiKeyEnv', kind: str(true), defaultValue: null, forServer: true },
  { key: 'temperature', kind: { type: 'number', integer: false, minimum: 0, maximum: 2 }, defaultValue: 0.2, forServer: true },
  { key: 'maxTokens', kind: int(1), defaultValue: 2048, forServer: true },
  { key: 'timeoutSeconds', kind: positive(), defaultValue: 120, forServer: true },
  { key: 'maxRetries', kind: int(0), defaultValue: 3, forServer: true },
  // Upper bounds on the refine budget: each round and each candidate is a paid model call, so a
  // typo (30 for 3) is reported instead of being sent.
  { key: 'refine.maxRounds', kind: int(1, 10), defaultValue: 3, forServer: true },
  { key: 'refine.candidates', kind: int(1, 8), defaultValue: 1, forServer: true },
  { key: 'refine.timeoutSeconds', kind: positive(3600), defaultValue: 300, forServer: true },
  { key: 'refine.preview', kind: bool(), defaultValue: false, forServer: true },
  { key: 'refine.requireCoverage', kind: bool(), defaultValue: false, forServer: true },
  { key: 'generate.testsFirst', kind: { type: 'enum', values: ['ask', 'always', 'never'] }, defaultValue: 'ask', forServer: true },
  { key: 'runOnSave', kind: bool(), defaultValue: true, forServer: true },
  { key: 'sandbox.timeLimitSeconds', kind: positiveOrNull(), defaultValue: null, forServer: true },
  { key: 'sandbox.memoryLimitMB', kind: int(1), defaultValue: 512, forServer: true },
  { key: 'sandbox.processes', kind: int(1), defaultValue: 512, forServer: true },
  { key: 'sandbox.outputLimitKB', kind: int(1), defaultValue: 1024, forServer: true },
  { key: 'sandbox.network', kind: bool(), defaultValue: false, forServer: true },
  { key: 'sandbox.allowUnsandboxed', kind: bool(), defaultValue: false, forServer: true },
  { key: 'sandbox.warmInterpreters', kind: bool(), defaultValue: true, forServer: true },
  { key: 'tests.command', kind: { type: 'stringArray', nullable: true }, defaultValue: null, forServer: true },
  { key: 'python.interpreter', kind: str(), defaultValue: 'python3', forServer: true },
  { key: 'node.path', kind: str(), defaultValue: 'node', forServer: true },
  { key: 'cxx.compiler', kind: str(), defaultValue: 'g++', forServer: true },
  { key: 'cxx.flags', kind: { type: 'stringArray', nullable: false }, defaultValue: ['-std=c++20', '-g', '-O0'], forServer: true },
];

// What vscode.WorkspaceConfiguration.inspect(key) returns, reduced to what we read.
export interface InspectedValue {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}
export interface SettingsSource {
  inspect(key: string): InspectedValue | undefined;
}

export interface ValidatedSettings {
  // Every key, with the default where the user set nothing or something invalid.
  readonly effective: ReadonlyMap<string, unknown>;
  // Only the keys the user set to a valid value.
  readonly explicit: ReadonlyMap<string, unknown>;
  // One line per invalid value, naming the full key, what was expected and what happens instead.
  readonly problems: readonly string[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array ${JSON.stringify(value)}`;
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function expectation(kind: SettingKind): string {
  switch (kind.type) {
    case 'enum':
      return `one of ${kind.values.map((v) => `"${v}"`).join(', ')}`;
    case 'string':
      return kind.nullable ? 'a string or null' : 'a non-empty string';
    case 'boolean':
      return 'true or false';
    case 'stringArray':
      return kind.nullable ? 'an array of strings or null' : 'an array of strings';
    case 'number': {
      const bounds: string[] = [];
      if (kind.minimum !== undefined) bounds.push(`>= ${kind.minimum}`);
      if (kind.exclusiveMinimum !== undefined) bounds.push(`> ${kind.exclusiveMinimum}`);
      if (kind.maximum !== undefined) bounds.push(`<= ${kind.maximum}`);
      return `${kind.integer ? 'an integer' : 'a number'}${bounds.length ? ' ' + bounds.join(' and ') : ''}${kind.nullable ? ' or null' : ''}`;
    }
  }
}

// True when `value` satisfies `kind`.
export function isValid(kind: SettingKind, value: unknown): boolean {
  switch (kind.type) {
    case 'enum':
      return typeof value === 'string' && kind.values.includes(value);
    case 'string':
      // The server's interpreter/compiler names must not be empty; server.path may be ('' = auto).
      return (kind.nullable && value === null) || typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'stringArray':
      return (kind.nullable && value === null) || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    case 'number':
      if (kind.nullable && value === null) return true;
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!kind.integer || Number.isInteger(value)) &&
        (kind.minimum === undefined || value >= kind.minimum) &&
        (kind.exclusiveMinimum === undefined || value > kind.exclusiveMinimum) &&
        (kind.maximum === undefined || value <= kind.maximum)
      );
  }
}

// The value the user set, most specific scope first; undefined when none is set.
function userValue(inspected: InspectedValue | undefined): unknown {
  if (!inspected) return undefined;
  if (inspected.workspaceFolderValue !== undefined) return inspected.workspaceFolderValue;
  if (inspected.workspaceValue !== undefined) return inspected.workspaceValue;
  return inspected.globalValue;
}

const kNonEmptyStringKeys = new Set(['python.interpreter', 'node.path', 'cxx.compiler']);

export function validateSettings(source: SettingsSource): ValidatedSettings {
  const effective = new Map<string, unknown>();
  const explicit = new Map<string, unknown>();
  const problems: string[] = [];
  for (const spec of SETTINGS) {
    effective.set(spec.key, spec.defaultValue);
    const value = userValue(source.inspect(spec.key));
    if (value === undefined) continue;
    const emptyName = kNonEmptyStringKeys.has(spec.key) && value === '';
    if (!isValid(spec.kind, value) || emptyName) {
      const instead = spec.forServer
        ? 'not sent to the server (its own layers decide)'
        : `using ${JSON.stringify(spec.defaultValue)}`;
      problems.push(`greenlight.${spec.key}: expected ${expectation(spec.kind)}, got ${describe(value)}; ${instead}`);
      continue;
    }
    effective.set(spec.key, value);
    explicit.set(spec.key, value);
  }
  return { effective, explicit, problems };
}

// The "greenlight" section as the server reads it (DESIGN.md shape), containing only the keys the
// user set. Sent as initializationOptions and as the answer to workspace/configuration.
export function serverSettings(settings: ValidatedSettings): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    if (!spec.forServer || !settings.explicit.has(spec.key)) continue;
    const parts = spec.key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = settings.explicit.get(spec.key);
  }
  return root;
}

// A subsection ("sandbox") of the server settings, for a server that asks for
// "greenlight.sandbox"; null when the user set nothing there.
export function serverSubsection(settings: ValidatedSettings, section: string): unknown {
  let node: unknown = serverSettings(settings);
  for (const part of section.split('.')) {
    if (typeof node !== 'object' || node === null) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node === undefined ? null : node;
}

export function effectiveString(settings: ValidatedSettings, key: string): string {
  const value = settings.effective.get(key);
  return typeof value === 'string' ? value : '';
}

export function effectiveStrings(settings: ValidatedSettings, key: string): string[] {
  const value = settings.effective.get(key);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

const kSection = 'greenlight';

export function isGreenlightSection(section: string | undefined): boolean {
  return section === kSection || (section?.startsWith(kSection + '.') ?? false);
}

// The answer to workspace/configuration: "greenlight" (or "greenlight.x") items from the
// validated settings, every other item from `otherAnswers` (the default handler's answers for
// the non-greenlight items, in order).
export function answerConfiguration(
  sections: readonly (string | undefined)[],
  settings: ValidatedSettings,
  otherAnswers: readonly unknown[],
): unknown[] {
  let other = 0;
  return sections.map((section) => {
    if (section === kSection) return serverSettings(settings);
    if (isGreenlightSection(section)) return serverSubsection(settings, section!.slice(kSection.length + 1));
    return otherAnswers[other++] ?? null;
  });
}
