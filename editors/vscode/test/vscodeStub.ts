// A stand-in for the 'vscode' module (which only exists inside VS Code), installed into
// node's module resolution before the code under test is loaded. It implements the few APIs
// the extension's own code uses (status bar, progress, messages, commands, context keys,
// diagnostics), records what they do, and answers every other property with an inert
// placeholder so vscode-languageclient can load. `reset()` clears the records between tests.
import Module = require('module');

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export interface StubStatusBarItem {
  text: string;
  tooltip: string | undefined;
  command: string | undefined;
  backgroundColor: ThemeColor | undefined;
  name: string | undefined;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export interface ProgressCall {
  options: { location: number; title: string; cancellable: boolean };
  reports: { message?: string; increment?: number }[];
  cancel: () => void;
  done: boolean;
}

export interface MessageCall {
  severity: 'information' | 'warning' | 'error';
  message: string;
  items: string[];
}

export const recorded = {
  statusBarItems: [] as StubStatusBarItem[],
  progress: [] as ProgressCall[],
  statusMessages: [] as string[],
  messages: [] as MessageCall[],
  // Every vscode.commands.executeCommand call (setContext included).
  executed: [] as { command: string; args: unknown[] }[],
  registered: new Map<string, (...args: unknown[]) => unknown>(),
  contexts: new Map<string, unknown>(),
  quickPicks: [] as unknown[][],
};

export function reset(): void {
  recorded.progress.length = 0;
  recorded.statusMessages.length = 0;
  recorded.messages.length = 0;
  recorded.executed.length = 0;
  recorded.quickPicks.length = 0;
  stub.languages.diagnostics.clear();
  stub.window.messageAnswer = undefined;
  stub.window.quickPickAnswer = undefined;
}

const activeEditorChanged = new EventEmitter<unknown>();
const diagnosticsChanged = new EventEmitter<{ uris: { toString(): string }[] }>();

function message(severity: MessageCall['severity']) {
  return (text: string, ...items: string[]): Promise<string | undefined> => {
    recorded.messages.push({ severity, message: text, items });
    return Promise.resolve(stub.window.messageAnswer);
  };
}

export class CancellationTokenSource {
  private listeners: (() => void)[] = [];
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => {
      this.listeners.push(l);
      return { dispose: () => undefined };
    },
  };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

// The test coverage API (VS Code 1.88): plain records of what the extension built.
export class TestCoverageCount {
  constructor(
    public covered: number,
    public total: number,
  ) {}
}
export class FileCoverage {
  constructor(
    readonly uri: unknown,
    public statementCoverage: TestCoverageCount,
  ) {}
}
export class StatementCoverage {
  constructor(
    public executed: number | boolean,
    public location: Position | Range,
  ) {}
}

export const stub = {
  EventEmitter,
  Position,
  Range,
  TestCoverageCount,
  FileCoverage,
  StatementCoverage,
  ThemeColor,
  CancellationTokenSource,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  commands: {
    registerCommand(id: string, handler: (...args: unknown[]) => unknown): { dispose(): void } {
      if (recorded.registered.has(id)) throw new Error(`command '${id}' already exists`);
      recorded.registered.set(id, handler);
      return { dispose: () => recorded.registered.delete(id) };
    },
    executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
      recorded.executed.push({ command, args });
      if (command === 'setContext') recorded.contexts.set(args[0] as string, args[1]);
      return Promise.resolve(undefined);
    },
  },
  languages: {
    // uri.toString() -> diagnostics, for getDiagnostics.
    diagnostics: new Map<string, unknown[]>(),
    getDiagnostics(uri: { toString(): string }): unknown[] {
      return stub.languages.diagnostics.get(uri.toString()) ?? [];
    },
    setDiagnostics(uri: { toString(): string }, diagnostics: unknown[]): void {
      stub.languages.diagnostics.set(uri.toString(), diagnostics);
      diagnosticsChanged.fire({ uris: [uri] });
    },
    onDidChangeDiagnostics: diagnosticsChanged.event,
    codeLensProviders: [] as { selector: unknown; provider: unknown }[],
    registerCodeLensProvider(selector: unknown, provider: unknown): { dispose(): void } {
      stub.languages.codeLensProviders.push({ selector, provider });
      return { dispose: () => undefined };
    },
  },
  window: {
    // Any editor-shaped object; setActiveLanguage makes a minimal one.
    activeTextEditor: undefined as unknown,
    setActiveLanguage(languageId: string | undefined): void {
      stub.window.setActiveEditor(languageId === undefined ? undefined : { document: { languageId, uri: `file:///stub.${languageId}` } });
    },
    setActiveEditor(editor: unknown): void {
      stub.window.activeTextEditor = editor;
      activeEditorChanged.fire(editor);
    },
    // What the next showXxxMessage resolves to (the button the user "clicks").
    messageAnswer: undefined as string | undefined,
    showInformationMessage: message('information'),
    showWarningMessage: message('warning'),
    showErrorMessage: message('error'),
    quickPickAnswer: undefined as unknown,
    showQuickPick(items: unknown[]): Promise<unknown> {
      recorded.quickPicks.push(items);
      return Promise.resolve(stub.window.quickPickAnswer);
    },
    onDidChangeActiveTextEditor: activeEditorChanged.event,
    createStatusBarItem(): StubStatusBarItem {
      const item: StubStatusBarItem = {
        text: '',
        tooltip: undefined,
        command: undefined,
        backgroundColor: undefined,
        name: undefined,
        visible: false,
        show() { item.visible = true; },
        hide() { item.visible = false; },
        dispose() { item.visible = false; },
      };
      recorded.statusBarItems.push(item);
      return item;
    },
    setStatusBarMessage(text: string): { dispose(): void } {
      recorded.statusMessages.push(text);
      return { dispose() {} };
    },
    withProgress<R>(
      options: ProgressCall['options'],
      task: (
        progress: { report(v: { message?: string; increment?: number }): void },
        token: { isCancellationRequested: boolean; onCancellationRequested(l: () => void): void },
      ) => Promise<R>,
    ): Promise<R> {
      const cancelListeners: (() => void)[] = [];
      const call: ProgressCall = {
        options,
        reports: [],
        done: false,
        cancel: () => {
          token.isCancellationRequested = true;
          for (const l of cancelListeners) l();
        },
      };
      const token = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => void cancelListeners.push(l) };
      recorded.progress.push(call);
      return task({ report: (v) => void call.reports.push(v) }, token).finally(() => {
        call.done = true;
      });
    },
  },
};

// Anything not implemented above: a callable, constructible placeholder.
function placeholder(name: string): unknown {
  const fn = function () {};
  return new Proxy(fn, {
    get: (target, prop) => (prop === 'prototype' ? target.prototype : placeholder(`${name}.${String(prop)}`)),
    construct: () => ({}),
    apply: () => undefined,
  });
}

const exportsProxy = new Proxy(stub as Record<string | symbol, unknown>, {
  get: (target, prop) => (prop in target ? target[prop] : placeholder(`vscode.${String(prop)}`)),
});

const kVirtualPath = '/virtual/vscode-stub.js';
const moduleApi = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  _cache: Record<string, unknown>;
};
const originalResolve = moduleApi._resolveFilename;
moduleApi._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? kVirtualPath : originalResolve.call(this, request, ...rest);
};
require.cache[kVirtualPath] = {
  id: kVirtualPath,
  filename: kVirtualPath,
  loaded: true,
  exports: exportsProxy,
} as unknown as NodeJS.Module;
