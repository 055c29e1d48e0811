// The texts users (and the real-VS-Code lane's assertions) read.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cancelledText,
  endText,
  isGenerateResult,
  outcomeText,
  parseRound,
  statusText,
  targetName,
  WorkView,
} from '../src/progressText';

const work = (w: Partial<WorkView> & { title: string }): WorkView => ({ cancellable: true, started: true, cancelling: false, ...w });

test('round and target name are read from the contract\'s progress texts', () => {
  assert.deepEqual(parseRound('round 2/3: running 7 tests'), { round: 2, of: 3, detail: 'running 7 tests' });
  assert.deepEqual(parseRound('round 1/3: writing… 312 tokens'), { round: 1, of: 3, detail: 'writing… 312 tokens' });
  assert.deepEqual(parseRound('round 10/12'), { round: 10, of: 12, detail: '' });
  assert.equal(parseRound('running 7 tests'), undefined);
  assert.equal(parseRound(undefined), undefined);
  assert.equal(targetName('Generating slugify()'), 'slugify');
  assert.equal(targetName('Fixing Stack::push()'), 'Stack::push');
  assert.equal(targetName('Generating code'), undefined);
  assert.equal(targetName('Running tests'), undefined);
});

test('status bar: `$(sync~spin) slugify: round 2/3` while generating, then each phase', () => {
  assert.equal(statusText([]), undefined);
  assert.deepEqual(statusText([work({ title: 'Generating', started: false })]), {
    text: '$(sync~spin) Greenlight: generating…',
    tooltip: 'Greenlight: Generating\nClick to cancel.',
    cancellable: true,
  });
  const generating = work({ title: 'Generating slugify()', message: 'round 2/3: running 7 tests', percentage: 50 });
  assert.deepEqual(statusText([generating]), {
    text: '$(sync~spin) slugify: round 2/3',
    tooltip: 'Greenlight: Generating slugify()\nround 2/3: running 7 tests\nClick to cancel.',
    cancellable: true,
  });
  assert.equal(statusText([work({ title: 'Fixing slugify()', message: 'round 1/3: writing… 312 tokens' })])!.text, '$(sync~spin) slugify: round 1/3');
  assert.equal(statusText([work({ title: 'Fixing slugify()' })])!.text, '$(sync~spin) slugify');
  assert.equal(statusText([work({ title: 'Generating code', message: 'round 1/2: asking the model' })])!.text, '$(sync~spin) Greenlight: Generating code');
  const cancelling = statusText([work({ title: 'Generating slugify()', message: 'round 2/3: asking the model', cancelling: true })])!;
  assert.equal(cancelling.text, '$(sync~spin) slugify: cancelling…');
  assert.equal(cancelling.cancellable, false);
  assert.equal(statusText([generating, work({ title: 'Running tests', percentage: 33.4, cancellable: false })])!.text, '$(sync~spin) Greenlight: Running tests 33% (+1)');
});

test('server-started work ends with its own summary', () => {
  assert.equal(endText('Generating slugify()', 'slugify: 7/7 tests passed in 2 rounds'), '$(beaker) slugify: 7/7 tests passed in 2 rounds');
  assert.equal(endText('Running tests', '1 passed, 1 failed'), '$(beaker) Greenlight: Running tests: 1 passed, 1 failed');
});

const passed = {
  status: 'passed',
  applied: true,
  target: { name: 'slugify', line: 3, end_line: 5, kind: 'stub' },
  rounds: [
    { round: 1, candidates: [{ status: 'failed', passed: 5, failed: 2, errors: 0 }] },
    { round: 2, candidates: [{ status: 'passed', passed: 7, failed: 0, errors: 0 }] },
  ],
  summary: { rounds: 2, passed: 7, failed: 0 },
  error: null,
};

test('outcome: the server\'s end message when it sent one, else built from the result', () => {
  assert.equal(isGenerateResult(passed), true);
  assert.equal(isGenerateResult({ status: 'done' }), false);
  assert.equal(isGenerateResult(null), false);
  assert.equal(outcomeText('generate', passed, 'slugify: 7/7 tests passed in 2 rounds').text, '$(pass) slugify: 7/7 tests passed in 2 rounds');
  const built = outcomeText('generate', passed, undefined);
  assert.equal(built.text, '$(pass) slugify: 7/7 tests passed in 2 rounds');
  assert.equal(built.log, 'generation of slugify(): passed (7/7 tests, 2 rounds), applied');
  assert.equal(outcomeText('fix', { ...passed, summary: { rounds: 1, passed: 1, failed: 0 } }, undefined).text, '$(pass) slugify: 1/1 tests passed in 1 round');
  assert.equal(outcomeText('generate', { ...passed, applied: false }, undefined).text, '$(info) slugify: 7/7 tests passed in 2 rounds; not applied');
});

test('outcome: failed shows the best score; unverified, cancelled and error say so', () => {
  const failed = {
    ...passed,
    status: 'failed',
    applied: false,
    rounds: [
      { candidates: [{ passed: 3, failed: 4, errors: 0 }, { passed: 5, failed: 1, errors: 1 }] },
      { candidates: [{ passed: 4, failed: 3, errors: 0 }] },
    ],
    summary: { rounds: 3, passed: 4, failed: 3 },
  };
  assert.deepEqual(outcomeText('generate', failed, undefined), {
    text: '$(error) slugify: no candidate passed (best 5/7)',
    log: 'generation of slugify(): no candidate passed in 3 rounds, best 5/7; nothing applied',
  });
  assert.equal(outcomeText('generate', failed, 'slugify: no candidate passed (best 5/7)').text, '$(error) slugify: no candidate passed (best 5/7)');
  assert.equal(outcomeText('generate', { status: 'unverified', applied: false, target: { name: 'f' } }, undefined).text, '$(warning) f: unverified (no tests found); not applied');
  assert.equal(outcomeText('fix', { status: 'cancelled', target: null }, undefined).text, '$(circle-slash) Greenlight: fix: cancelled; nothing applied');
  const noProvider = outcomeText('generate', {
    status: 'error',
    target: null,
    error: 'no LLM provider is configured: set greenlight.provider or an API key\nsecond line',
  }, undefined);
  assert.equal(noProvider.text, '$(error) Greenlight: no LLM provider is configured: set greenlight.provider or an API key');
  assert.match(noProvider.log, /second line/);
  assert.equal(outcomeText('generate', null, undefined).text, '$(info) Greenlight: generation finished');
});

test('cancelled (-32800): names the target when the server had said it', () => {
  assert.equal(cancelledText('generate', 'Generating slugify()').text, '$(circle-slash) slugify: cancelled; nothing applied');
  assert.equal(cancelledText('fix', undefined).text, '$(circle-slash) Greenlight: fix: cancelled; nothing applied');
});
