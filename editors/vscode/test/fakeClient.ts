// A scripted stand-in for the language client's jsonrpc side, for ProgressTracker and
// WorkRunner: the test plays the server (create requests, $/progress, answers) by hand.
import type { CancellationToken } from 'vscode-languageclient/node';
import type { ProgressClient } from '../src/progress';
import type { RequestClient } from '../src/generate';

type Handler = (value: unknown) => void;

export interface SentRequest {
  method: string;
  params: unknown;
  token: CancellationToken | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function fakeClient() {
  const requests = new Map<string, Handler>();
  const progress = new Map<unknown, { handler: Handler; disposed: boolean }>();
  const notifications: { method: string; params: unknown }[] = [];
  const sent: SentRequest[] = [];
  const client = {
    onRequest(type: { method: string }, handler: Handler) {
      requests.set(type.method, handler);
      return { dispose: () => requests.delete(type.method) };
    },
    onProgress(_type: unknown, token: unknown, handler: Handler) {
      if (progress.has(token) && !progress.get(token)!.disposed) throw new Error(`token ${String(token)} registered twice`);
      const entry = { handler, disposed: false };
      progress.set(token, entry);
      return { dispose: () => (entry.disposed = true) };
    },
    sendNotification(method: string, params: unknown) {
      notifications.push({ method, params });
      return Promise.resolve();
    },
    // A method name (our code) or a request type (vscode-languageclient's features).
    sendRequest(type: string | { method: string }, params: unknown, token?: CancellationToken) {
      const method = typeof type === 'string' ? type : type.method;
      return new Promise((resolve, reject) => sent.push({ method, params, token, resolve, reject }));
    },
  };
  // Plays the server: $/progress on a token, as long as the client listens to it.
  const send = (token: unknown, value: unknown) => {
    const entry = progress.get(token);
    if (!entry || entry.disposed) throw new Error(`nobody listens to progress token ${String(token)}`);
    entry.handler(value);
  };
  return {
    client: client as unknown as ProgressClient & RequestClient,
    requests,
    progress,
    notifications,
    sent,
    send,
  };
}

export const tick = () => new Promise((resolve) => setImmediate(resolve));
