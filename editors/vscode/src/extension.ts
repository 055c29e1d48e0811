// Entry point: wires the features together and nothing else.
import * as vscode from 'vscode';
import { kLanguages, ServerManager } from './client';
import { registerCommands } from './commands';
import { ContextKeys } from './contextKeys';
import { StatusBar } from './statusBar';
import { TestingFeature } from './testing';

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const contextKeys = new ContextKeys(kLanguages);
  const statusBar = new StatusBar(kLanguages);
  manager = new ServerManager(statusBar);
  const current = manager;
  const testing = new TestingFeature(kLanguages, () => current.workRunner, (line) => current.output.appendLine(line));
  manager.testing = testing;
  context.subscriptions.push(
    testing,
    contextKeys,
    statusBar,
    manager,
    manager.onDidChangeWork((work) => {
      statusBar.setWork(work);
      contextKeys.setWork(work);
    }),
    ...registerCommands(manager),
  );
  await manager.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
