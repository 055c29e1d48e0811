// Server-initiated work-done progress ($/progress after window/workDoneProgress/create).
//
// vscode-languageclient's built-in handler shows a notification but tells nobody else, and the
// jsonrpc layer allows one handler per progress token, so this feature replaces it: it is
// registered after the built-in features, so its window/workDoneProgress/create handler is
// installed last on every (re)start and wins. It shows cancellable work (tests, generation) as a
// notification with a Cancel button that sends window/workDoneProgress/cancel, shows the rest
// in the window's progress area, and tells listeners (the status bar) what is running.
import * as vscode from 'vscode';
import {
  BaseLanguageClient,
  ClientCapabilities,
  FeatureState,
  ProgressToken,
  StaticFeature,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressReport,
} from 'vscode-languageclient/node';

export interface ActiveWork {
  readonly token: ProgressToken;
  readonly title: string;
  message?: string;
  percentage?: number;
  readonly cancellable: boolean;
}

interface Part {
  work: ActiveWork | undefined;
  report?: (value: { message?: string; increment?: number }) => void;
  finish?: () => void;
  lastPercentage: number;
  readonly subscription: vscode.Disposable;
}

export class ProgressTracker implements StaticFeature, vscode.Disposable {
  private readonly parts = new Map<ProgressToken, Part>();
  private readonly changed = new vscode.EventEmitter<readonly ActiveWork[]>();
  readonly onDidChange = this.changed.event;
  private createHandler: vscode.Disposable | undefined;

  constructor(private readonly client: BaseLanguageClient) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = capabilities.window ?? {};
    capabilities.window.workDoneProgress = true;
  }

  initialize(): void {
    this.createHandler?.dispose();
    this.createHandler = this.client.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      this.track(params.token);
    });
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  clear(): void {
    for (const token of [...this.parts.keys()]) this.end(token);
  }

  dispose(): void {
    this.clear();
    this.createHandler?.dispose();
    this.changed.dispose();
  }

  active(): ActiveWork[] {
    return [...this.parts.values()].flatMap((p) => (p.work ? [p.work] : []));
  }

  // Asks the server to cancel every cancellable piece of work; returns how many were asked.
  cancelAll(): number {
    let count = 0;
    for (const work of this.active()) {
      if (!work.cancellable) continue;
      void this.client.sendNotification(WorkDoneProgressCancelNotification.type, { token: work.token });
      count++;
    }
    return count;
  }

  private track(token: ProgressToken): void {
    if (this.parts.has(token)) return;
    const subscription = this.client.onProgress(WorkDoneProgress.type, token, (value) => {
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
    this.parts.set(token, { work: undefined, lastPercentage: 0, subscription });
  }

  private begin(token: ProgressToken, value: WorkDoneProgressBegin): void {
    const part = this.parts.get(token);
    if (!part || part.work) return;
    const work: ActiveWork = {
      token,
      title: value.title,
      message: value.message,
      percentage: value.percentage,
      cancellable: value.cancellable === true,
    };
    part.work = work;
    const location = work.cancellable ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
    void vscode.window.withProgress(
      { location, title: `greenlight: ${value.title}`, cancellable: work.cancellable },
      (progress, cancellation) => {
        cancellation.onCancellationRequested(() => {
          void this.client.sendNotification(WorkDoneProgressCancelNotification.type, { token });
        });
        part.report = (v) => progress.report(v);
        this.report(token, { kind: 'report', message: value.message, percentage: value.percentage });
        return new Promise<void>((resolve) => {
          part.finish = resolve;
        });
      },
    );
    this.changed.fire(this.active());
  }

  private report(token: ProgressToken, value: WorkDoneProgressReport): void {
    const part = this.parts.get(token);
    if (!part?.work) return;
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
    const part = this.parts.get(token);
    if (!part) return;
    this.parts.delete(token);
    part.subscription.dispose();
    part.finish?.();
    if (message && part.work) vscode.window.setStatusBarMessage(`greenlight: ${part.work.title}: ${message}`, 5000);
    this.changed.fire(this.active());
  }
}
