import { recorded, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusBar } from '../src/statusBar';

test('status bar: server state, progress, cancel on click, hidden for other languages', () => {
  stub.window.setActiveLanguage('python');
  const bar = new StatusBar(['python', 'cpp']);
  const item = recorded.statusBarItems[recorded.statusBarItems.length - 1]!;

  bar.setState({ kind: 'starting' });
  assert.equal(item.text, '$(loading~spin) greenlight');
  assert.equal(item.visible, true);

  bar.setState({ kind: 'running', serverPath: '/usr/bin/greenlight', version: 'greenlight 0.1.0' });
  assert.equal(item.text, '$(beaker) greenlight');
  assert.match(String(item.tooltip), /greenlight 0\.1\.0 \(\/usr\/bin\/greenlight\)/);
  assert.equal(item.command, 'greenlight.showOutput');

  bar.setWork([{ token: 't', title: 'Running tests', percentage: 40, message: 'test_add', cancellable: true }]);
  assert.equal(item.text, '$(sync~spin) greenlight: Running tests 40%');
  assert.equal(item.command, 'greenlight.cancelRun');
  assert.match(String(item.tooltip), /Running tests: test_add\nClick to cancel\./);

  bar.setWork([
    { token: 't', title: 'Running tests', cancellable: false },
    { token: 'u', title: 'Generating', cancellable: false },
  ]);
  assert.equal(item.text, '$(sync~spin) greenlight: Generating (+1)');
  assert.equal(item.command, 'greenlight.showOutput');

  bar.setWork([]);
  stub.window.setActiveLanguage('markdown');
  assert.equal(item.visible, false, 'idle item is hidden outside greenlight languages');

  bar.setState({ kind: 'failed', message: 'greenlight binary not found on PATH' });
  assert.equal(item.visible, true, 'a failure is shown everywhere');
  assert.equal(item.text, '$(error) greenlight');
  assert.equal((item.backgroundColor as { id: string } | undefined)?.id, 'statusBarItem.errorBackground');
  bar.dispose();
});
