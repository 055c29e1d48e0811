// The language client's lifecycle: reading and validating settings, finding the server binary,
// starting/stopping/restarting `greenlight lsp`, answering workspace/configuration, and routing
// the server's generate/fix commands to the WorkRunner (generate.ts).
//
// Settings are re-read (and re-validated, through settings.ts only) on every start and every
// workspace/configuration pull, so the server always sees what the settings say now.
import * as vscode from 'vscode';
import {
  CancellationToken,
  ConfigurationParams,
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ResponseError,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { routeWorkCommands, vscodeWorkUi, WorkRunner } from './generate';
import { TestsPreview } from './testsPreview';
import { ActiveWork, ProgressTracker } from './progress';
import { kProduct } from './progressText';
import { defaultHost, resolveServerPath } from './serverPath';
import {
  answerConfiguration,
  effectiveString,
  effectiveStrings,
  isGreenlightSection,
  serverSettings,
  validateSettings,
  ValidatedSettings,
} from './settings';
import { ServerState, StatusBar } from './statusBar';
import { TestingFeature } from './testing';

export const kLanguages = ['python', 'javascript', 'cpp'] as const;
const kSection = 'greenlight';
// Changing these needs a new server process.
const kRestartKeys = ['greenlight.server.path', 'greenlight.server.extraArgs'];

export function readSettings(): ValidatedSettings {
  return validateSettings(vscode.workspace.getConfiguration(kSection));
}

export class ServerManager implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel('greenlight');
  private client: LanguageClient | undefined;
  private progress: ProgressTracker | undefined;
  private progressSubscription: vscode.Disposable | undefined;
  private runner: WorkRunner | undefined;
  // Where proposed tests are reviewed (tests first, issue 36); one for every client.
  private readonly testsPreview = new TestsPreview();
  private readonly workChanged = new vscode.EventEmitter<readonly ActiveWork[]>();
  // The running work (for the status bar and the context keys); [] when the server stops.
  readonly onDidChangeWork = this.workChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private reportedProblems = '';
  private starting: Promise<void> | undefined;
  // The Testing view (testing.ts); set by extension.ts, fed each client that starts.
  testing: TestingFeature | undefined;

  constructor(private readonly statusBar: StatusBar) {
    this.subscriptions.push(
      this.testsPreview,
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      // Trust unlocks the restricted settings (server.path, interpreters, ...) and
      // build/greenlight: start over with them.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart()),
    );
  }

  get languageClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  get progressTracker(): ProgressTracker | undefined {
    return this.progress;
  }

  // Runs greenlight.generate / greenlight.fix with progress; undefined while the server is not running.
  get workRunner(): WorkRunner | undefined {
    return this.languageClient ? this.runner : undefined;
  }

  async start(): Promise<void> {
    if (this.starting) return this.starting;
    this.starting = this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.testing?.detach();
    this.progressSubscription?.dispose();
    this.progress?.dispose();
    this.progress = undefined;
    this.runner = undefined;
    this.workChanged.fire([]);
    if (client) {
      try {
        await client.stop(5000);
      } catch (e) {
        this.output.appendLine(`greenlight: stopping the server: ${String(e)}`);
      }
    }
    this.statusBar.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async dispose(): Promise<void> {
    for (const s of this.subscriptions) s.dispose();
    await this.stop();
    this.workChanged.dispose();
    this.output.dispose();
  }

  private setState(state: ServerState): void {
    this.statusBar.setState(state);
  }

  private reportProblems(settings: ValidatedSettings): void {
    const text = settings.problems.join('\n');
    if (text === this.reportedProblems) return;
    this.reportedProblems = text;
    if (!text) return;
    for (const p of settings.problems) this.output.appendLine(`settings: ${p}`);
    void vscode.window
      .showWarningMessage(`${kProduct}: invalid settings: ${settings.problems.join('; ')}`, 'Open Settings')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', kSection);
      });
  }

  private async doStart(): Promise<void> {
    if (this.client) return;
    const settings = readSettings();
    this.reportProblems(settings);
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const resolution = resolveServerPath(
      effectiveString(settings, 'server.path'),
      defaultHost(folders, vscode.workspace.isTrusted),
    );
    if (!resolution.ok) {
      this.output.appendLine(`greenlight: ${resolution.message}`);
      if (resolution.tried.length) this.output.appendLine(`  tried: ${resolution.tried.join(', ')}`);
      this.setState({ kind: 'failed', message: resolution.message });
      void vscode.window.showErrorMessage(`${kProduct}: ${resolution.message}`, 'Open Settings', 'Show Output').then((c) => {
        if (c === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'greenlight.server');
        if (c === 'Show Output') this.output.show(true);
      });
      return;
    }
    const serverPath = resolution.path;
    this.output.appendLine(`greenlight: starting ${serverPath} (from ${resolution.source})`);

    // No `transport`: the client would append --stdio; `greenlight lsp` already speaks stdio.
    const serverOptions: ServerOptions = {
      command: serverPath,
      args: ['lsp', ...effectiveStrings(settings, 'server.extraArgs')],
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: kLanguages.map((language) => ({ scheme: 'file', language })),
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: serverSettings(settings),
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/.greenlight.json') },
      middleware: {
        // The server's generate/fix commands, run from a code action or a CodeLens.
        executeCommand: routeWorkCommands(() => (this.client === client ? this.runner : undefined)),
        workspace: {
          configuration: (params, token, next) => this.answerConfiguration(params, token, next),
        },
      },
    };
    const client = new LanguageClient('greenlight', 'greenlight', serverOptions, clientOptions);
    const progress = new ProgressTracker(client);
    client.registerFeature(progress);
    this.client = client;
    this.progress = progress;
    this.runner = new WorkRunner(client, progress, vscodeWorkUi(this.output, (proposal) => this.testsPreview.review(proposal)));
    this.progressSubscription = progress.onDidChange((work) => this.workChanged.fire(work));
    client.onDidChangeState((e) => {
      if (this.client !== client) return;
      if (e.newState === State.Starting) this.setState({ kind: 'starting' });
      if (e.newState === State.Running) {
        const info = client.initializeResult?.serverInfo;
        const version = info ? `${info.name}${info.version ? ' ' + info.version : ''}` : undefined;
        this.setState({ kind: 'running', serverPath, version });
      }
      if (e.newState === State.Stopped) this.setState({ kind: 'stopped' });
    });
    this.setState({ kind: 'starting' });
    try {
      await client.start();
      if (this.client === client) this.testing?.attach(client);
    } catch (e) {
      const message = `could not start ${serverPath}: ${e instanceof Error ? e.message : String(e)}`;
      this.output.appendLine(`greenlight: ${message}`);
      if (this.client === client) this.setState({ kind: 'failed', message });
    }
  }

  // workspace/configuration: answer the "greenlight" section (or a subsection) from the
  // validated settings; anything else goes to the default handler.
  private async answerConfiguration(
    params: ConfigurationParams,
    token: CancellationToken,
    next: (params: ConfigurationParams, token: CancellationToken) => unknown,
  ): Promise<unknown[] | ResponseError<void>> {
    const settings = readSettings();
    this.reportProblems(settings);
    const others = params.items.filter((item) => !isGreenlightSection(item.section));
    let answered: unknown[] = [];
    if (others.length > 0) {
      const result = await next({ items: others }, token);
      if (result instanceof ResponseError) return result;
      answered = Array.isArray(result) ? result : [];
    }
    return answerConfiguration(params.items.map((item) => item.section), settings, answered);
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(kSection)) return;
    if (kRestartKeys.some((key) => e.affectsConfiguration(key)) || !this.client) {
      void this.restart();
      return;
    }
    const settings = readSettings();
    this.reportProblems(settings);
    // The server pulls workspace/configuration when told; the payload is for push-model readers.
    void this.languageClient?.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { [kSection]: serverSettings(settings) },
    });
  }
}
