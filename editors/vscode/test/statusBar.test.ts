import { recorded, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkView } from '../src/progressText';
import { StatusBar } from '../src/statusBar';

const work = (w: Partial<WorkView> & { title: string }): WorkView => ({ cancellable: false, started: true, cancelling: false, ...w });

test('status bar: server state, progress, cancel on click, hidden for other languages', () => {
  stub.window.setActiveLanguage('python');
  const bar = new StatusBar(['python', 'cpp']);
  const item = recorded.statusBarItems[recorded.statusBarItems.length - 1]!;

  bar.setState({ kind: 'starting' });
  assert.equal(item.text, '$(loading~spin) Greenlight');
  assert.equal(item.visible, true);

  bar.setState({ kind: 'running', serverPath: '/usr/bin/greenlight', version: 'greenlight 0.1.0' });
  assert.equal(item.text, '$(beaker) Greenlight');
  assert.match(String(item.tooltip), /greenlight 0\.1\.0 \(\/usr\/bin\/greenlight\)/);
  assert.equal(item.command, 'greenlight.showOutput');

  bar.setWork([work({ title: 'Running tests', percentage: 40, message: 'test_add', cancellable: true })]);
  assert.equal(item.text, '$(sync~spin) Greenlight: Running tests 40%');
  assert.equal(item.command, 'greenlight.cancelRun');
  assert.equal(item.tooltip, 'Greenlight: Running tests\ntest_add\nClick to cancel.');

  bar.setWork([
    work({ title: 'Running tests' }),
    work({ title: 'Generating slugify()', message: 'round 2/3: running 7 tests', cancellable: true }),
  ]);
  assert.equal(item.text, '$(sync~spin) slugify: round 2/3 (+1)');
  assert.equal(item.command, 'greenlight.cancelRun');

  bar.setWork([work({ title: 'Generating slugify()', message: 'round 2/3: running 7 tests', cancellable: true, cancelling: true })]);
  assert.equal(item.text, '$(sync~spin) slugify: cancelling…');
  assert.equal(item.command, 'greenlight.showOutput', 'nothing more to cancel');

  bar.setWork([]);
  assert.equal(item.text, '$(beaker) Greenlight', 'back to the server state');
  stub.window.setActiveLanguage('markdown');
  assert.equal(item.visible, false, 'idle item is hidden outside greenlight languages');
  bar.setWork([work({ title: 'Fixing slugify()', message: 'round 1/3: asking the model', cancellable: true })]);
  assert.equal(item.visible, true, 'running work is shown everywhere');
  bar.setWork([]);

  bar.setState({ kind: 'failed', message: 'greenlight binary not found on PATH' });
  assert.equal(item.visible, true, 'a failure is shown everywhere');
  assert.equal(item.text, '$(error) Greenlight');
  assert.equal((item.backgroundColor as { id: string } | undefined)?.id, 'statusBarItem.errorBackground');
  bar.dispose();
});
