// Entry point: wires the features together and nothing else.
import * as vscode from 'vscode';
import { kLanguages, ServerManager } from './client';
import { registerCommands } from './commands';
import { StatusBar } from './statusBar';

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  void vscode.commands.executeCommand('setContext', 'greenlight.languages', kLanguages);
  const statusBar = new StatusBar(kLanguages);
  manager = new ServerManager(statusBar);
  context.subscriptions.push(statusBar, manager, ...registerCommands(manager));
  await manager.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
