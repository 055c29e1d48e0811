import { recorded, reset, stub } from './vscodeStub';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContextKeys } from '../src/contextKeys';

const setContexts = () => recorded.executed.filter((e) => e.command === 'setContext').map((e) => e.args);

test('context keys: languages once, busy while cancellable work runs, canFix follows the diagnostics', () => {
  reset();
  const uri = { toString: () => 'file:///w/m.py' };
  stub.window.setActiveEditor({ document: { languageId: 'python', uri } });
  const keys = new ContextKeys(['python', 'cpp']);
  assert.deepEqual(setContexts(), [
    ['greenlight.languages', ['python', 'cpp']],
    ['greenlight.canFix', false],
  ]);

  const work = { title: 'Generating slugify()', cancellable: true, started: true, cancelling: false };
  keys.setWork([work]);
  keys.setWork([work]);
  assert.equal(recorded.contexts.get('greenlight.busy'), true);
  keys.setWork([{ ...work, cancelling: true }]);
  assert.equal(recorded.contexts.get('greenlight.busy'), false, 'nothing left to cancel');
  keys.setWork([{ ...work, cancellable: false }]);
  assert.equal(setContexts().filter(([k]) => k === 'greenlight.busy').length, 2, 'set only when it changes');

  const failing = { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 9 } }, source: 'greenlight', code: 'test-failed' };
  stub.languages.setDiagnostics({ toString: () => 'file:///w/other.py' }, [failing]);
  assert.equal(recorded.contexts.get('greenlight.canFix'), false, 'another file\'s diagnostics do not count');
  stub.languages.setDiagnostics(uri, [{ ...failing, code: 'no-tests' }]);
  assert.equal(recorded.contexts.get('greenlight.canFix'), false, 'not a fixable code');
  stub.languages.setDiagnostics(uri, [failing]);
  assert.equal(recorded.contexts.get('greenlight.canFix'), true);
  stub.window.setActiveEditor({ document: { languageId: 'python', uri: { toString: () => 'file:///w/other.py' } } });
  assert.equal(recorded.contexts.get('greenlight.canFix'), true, 'switching to a file with a failure');
  stub.window.setActiveEditor(undefined);
  assert.equal(recorded.contexts.get('greenlight.canFix'), false);
  keys.dispose();
});
