// Work-done progress ($/progress), from both ends:
// - server-initiated: the server asks window/workDoneProgress/create (a test run, a "Retry with
//   more rounds"); cancelling sends window/workDoneProgress/cancel;
// - client-initiated: the extension passes its own workDoneToken in a request (generate, fix; see
//   generate.ts); cancelling cancels that request ($/cancelRequest).
// Either way, `begin` opens the UI: cancellable work a notification with a Cancel button, the
// rest the window's progress area. Listeners (the status bar, the context keys) hear about every
// change. Client-initiated work is listed from the moment the request is sent, before `begin`.
//
// vscode-languageclient's built-in handler shows a notification but tells nobody else, and the
// jsonrpc layer allows one handler per progress token, so this feature replaces it: it is
// registered after the built-in features, so its window/workDoneProgress/create handler is
// installed last on every (re)start and wins.
import * as vscode from 'vscode';
import {
  ClientCapabilities,
  Disposable,
  FeatureState,
  NotificationHandler,
  ProgressToken,
  ProgressType,
  RequestHandler,
  StaticFeature,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateParams,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import { endText, notificationTitle, WorkView } from './progressText';

// The part of a language client (or of a bare jsonrpc connection, in the e2e test) used here.
export interface ProgressClient {
  onRequest(
    type: typeof WorkDoneProgressCreateRequest.type,
    handler: RequestHandler<WorkDoneProgressCreateParams, void, void>,
  ): Disposable;
  onProgress<P>(type: ProgressType<P>, token: string | number, handler: NotificationHandler<P>): Disposable;
  sendNotification(method: string, params: unknown): Promise<void>;
}

export interface ActiveWork extends WorkView {
  readonly token: ProgressToken;
  readonly origin: 'server' | 'client';
  title: string;
  message?: string;
  percentage?: number;
  cancellable: boolean;
  started: boolean;
  cancelling: boolean;
}

// The handle of client-initiated work, for the code that sent the request.
export interface ClientWork extends vscode.Disposable {
  readonly token: ProgressToken;
  // The begin title ("Generating slugify()") once the server sent it.
  readonly title: string | undefined;
  // The end message ("slugify: 7/7 tests passed in 2 rounds") once the server sent it.
  readonly endMessage: string | undefined;
}

interface Part {
  readonly work: ActiveWork;
  readonly cancel: () => void;
  report?: (value: { message?: string; increment?: number }) => void;
  finish?: () => void;
  lastPercentage: number;
  beginTitle?: string;
  endMessage?: string;
  readonly subscription: Disposable;
}

export class ProgressTracker implements StaticFeature, vscode.Disposable {
  private readonly parts = new Map<ProgressToken, Part>();
  // Server tokens created but not begun yet (no UI, not listed).
  private readonly pending = new Map<ProgressToken, Disposable>();
  private readonly changed = new vscode.EventEmitter<readonly ActiveWork[]>();
  readonly onDidChange = this.changed.event;
  private createHandler: Disposable | undefined;

  constructor(private readonly client: ProgressClient) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = capabilities.window ?? {};
    capabilities.window.workDoneProgress = true;
  }

  initialize(): void {
    this.createHandler?.dispose();
    this.createHandler = this.client.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      this.trackServer(params.token);
    });
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  clear(): void {
    for (const token of [...this.parts.keys()]) this.end(token);
    for (const subscription of this.pending.values()) subscription.dispose();
    this.pending.clear();
  }

  dispose(): void {
    this.clear();
    this.createHandler?.dispose();
    this.changed.dispose();
  }

  // Oldest first.
  active(): ActiveWork[] {
    return [...this.parts.values()].map((p) => p.work);
  }

  // Asks for every cancellable piece of work to stop; returns how many were asked.
  cancelAll(): number {
    let count = 0;
    for (const [token, part] of this.parts) {
      if (!part.work.cancellable || part.work.cancelling) continue;
      this.cancel(token);
      count++;
    }
    return count;
  }

  // Lists client-initiated work at once (the status bar shows it before the server's `begin`)
  // and routes the server's $/progress for `token` to the UI. `cancel` stops the request.
  trackClient(token: ProgressToken, provisionalTitle: string, cancel: () => void): ClientWork {
    if (this.parts.has(token) || this.pending.has(token)) throw new Error(`progress token ${String(token)} is already in use`);
    const work: ActiveWork = {
      token,
      origin: 'client',
      title: provisionalTitle,
      cancellable: true,
      started: false,
      cancelling: false,
    };
    const part: Part = { work, cancel, lastPercentage: 0, subscription: this.subscribe(token) };
    this.parts.set(token, part);
    this.changed.fire(this.active());
    return {
      token,
      get title() {
        return part.beginTitle;
      },
      get endMessage() {
        return part.endMessage;
      },
      dispose: () => this.end(token),
    };
  }

  private trackServer(token: ProgressToken): void {
    if (this.parts.has(token) || this.pending.has(token)) return;
    this.pending.set(token, this.subscribe(token));
  }

  private subscribe(token: ProgressToken): Disposable {
    return this.client.onProgress(WorkDoneProgress.type, token, (value) => {
      switch (value.kind) {
        case 'begin':
          this.begin(token, value);
          break;
        case 'report':
          this.report(token, value);
          break;
        case 'end':
          this.end(token, value.message);
          break;
      }
    });
  }

  private cancel(token: ProgressToken): void {
    const part = this.parts.get(token);
    if (!part || part.work.cancelling) return;
    part.work.cancelling = true;
    part.cancel();
    this.changed.fire(this.active());
  }

  private begin(token: ProgressToken, value: WorkDoneProgressBegin): void {
    let part = this.parts.get(token);
    if (part?.work.started) return;
    if (!part) {
      const subscription = this.pending.get(token);
      if (!subscription) return;
      this.pending.delete(token);
      const work: ActiveWork = {
        token,
        origin: 'server',
        title: value.title,
        cancellable: value.cancellable === true,
        started: true,
        cancelling: false,
      };
      const cancel = () => void this.client.sendNotification(WorkDoneProgressCancelNotification.method, { token });
      part = { work, cancel, lastPercentage: 0, subscription };
      this.parts.set(token, part);
    }
    const work = part.work;
    work.title = value.title;
    work.started = true;
    // Client-initiated work is always cancellable: the request can be cancelled.
    if (work.origin === 'server') work.cancellable = value.cancellable === true;
    part.beginTitle = value.title;
    const current = part;
    const location = work.cancellable ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
    void vscode.window.withProgress(
      { location, title: notificationTitle(value.title), cancellable: work.cancellable },
      (progress, cancellation) => {
        cancellation.onCancellationRequested(() => this.cancel(token));
        current.report = (v) => progress.report(v);
        this.report(token, { kind: 'report', message: value.message, percentage: value.percentage });
        return new Promise<void>((resolve) => {
          current.finish = resolve;
        });
      },
    );
    this.changed.fire(this.active());
  }

  private report(token: ProgressToken, value: WorkDoneProgressReport): void {
    const part = this.parts.get(token);
    if (!part?.work.started) return;
    if (value.message !== undefined) part.work.message = value.message;
    let increment: number | undefined;
    if (value.percentage !== undefined) {
      part.work.percentage = value.percentage;
      increment = Math.max(0, value.percentage - part.lastPercentage);
      part.lastPercentage = Math.max(part.lastPercentage, value.percentage);
    }
    part.report?.({ message: value.message, increment });
    this.changed.fire(this.active());
  }

  private end(token: ProgressToken, message?: string): void {
    const pending = this.pending.get(token);
    if (pending) {
      this.pending.delete(token);
      pending.dispose();
    }
    const part = this.parts.get(token);
    if (!part) return;
    this.parts.delete(token);
    part.subscription.dispose();
    part.endMessage = message;
    part.finish?.();
    // Client-initiated work reports its own outcome (generate.ts), with the command's result.
    if (message && part.work.origin === 'server' && part.work.started) {
      vscode.window.setStatusBarMessage(endText(part.work.title, message), 10000);
    }
    this.changed.fire(this.active());
  }
}
