// A stand-in for the 'vscode' module (which only exists inside VS Code), installed into
// node's module resolution before the code under test is loaded. It implements the few APIs
// the status bar and progress code use, records what they do, and answers every other
// property with an inert placeholder so vscode-languageclient can load.
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

export const recorded = {
  statusBarItems: [] as StubStatusBarItem[],
  progress: [] as ProgressCall[],
  statusMessages: [] as string[],
};

const activeEditorChanged = new EventEmitter<unknown>();

export const stub = {
  EventEmitter,
  ThemeColor,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  window: {
    activeTextEditor: undefined as { document: { languageId: string } } | undefined,
    setActiveLanguage(languageId: string | undefined): void {
      stub.window.activeTextEditor = languageId === undefined ? undefined : { document: { languageId } };
      activeEditorChanged.fire(stub.window.activeTextEditor);
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
