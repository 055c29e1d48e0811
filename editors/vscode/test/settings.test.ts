import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectedValue, serverSettings, serverSubsection, SETTINGS, validateSettings } from '../src/settings';

function source(values: Record<string, unknown>, scope: keyof InspectedValue = 'globalValue') {
  return {
    inspect(key: string): InspectedValue | undefined {
      return key in values ? { [scope]: values[key] } : {};
    },
  };
}

test('nothing set: defaults are effective and nothing is sent to the server', () => {
  const s = validateSettings(source({}));
  assert.deepEqual(s.problems, []);
  assert.equal(s.explicit.size, 0);
  assert.equal(s.effective.get('sandbox.timeLimitSeconds'), null);
  assert.equal(s.effective.get('sandbox.processes'), 512);
  assert.deepEqual(s.effective.get('cxx.flags'), ['-std=c++20', '-g', '-O0']);
  assert.deepEqual(serverSettings(s), {});
});

test('valid values are forwarded nested, in the DESIGN.md shape, editor-only keys excluded', () => {
  const s = validateSettings(
    source({
      provider: 'anthropic',
      model: 'claude-x',
      'refine.maxRounds': 5,
      'sandbox.network': true,
      'sandbox.timeLimitSeconds': 2.5,
      'tests.command': ['make', 'test', '{file}'],
      'server.path': '/opt/greenlight',
      'server.extraArgs': ['--log-level', 'debug'],
    }),
  );
  assert.deepEqual(s.problems, []);
  assert.deepEqual(serverSettings(s), {
    provider: 'anthropic',
    model: 'claude-x',
    refine: { maxRounds: 5 },
    sandbox: { timeLimitSeconds: 2.5, network: true },
    tests: { command: ['make', 'test', '{file}'] },
  });
  assert.equal(s.effective.get('server.path'), '/opt/greenlight');
  assert.deepEqual(serverSubsection(s, 'sandbox'), { timeLimitSeconds: 2.5, network: true });
  assert.equal(serverSubsection(s, 'cxx'), null);
});

test('explicit null is forwarded for nullable keys (it means "use the lower layer")', () => {
  const s = validateSettings(source({ baseUrl: null, 'tests.command': null }));
  assert.deepEqual(s.problems, []);
  assert.deepEqual(serverSettings(s), { baseUrl: null, tests: { command: null } });
});

test('invalid values are reported with their full key and are not forwarded', () => {
  const s = validateSettings(
    source({
      provider: 'gpt',
      temperature: 3,
      maxTokens: 1.5,
      'sandbox.timeLimitSeconds': 0,
      'sandbox.memoryLimitMB': '512',
      'sandbox.network': 'yes',
      'cxx.flags': ['-O2', 3],
      'python.interpreter': '',
      'server.extraArgs': '--log-level debug',
      'server.path': 42,
    }),
  );
  const keys = s.problems.map((p) => p.split(':')[0]);
  assert.deepEqual(keys.sort(), [
    'greenlight.cxx.flags',
    'greenlight.maxTokens',
    'greenlight.provider',
    'greenlight.python.interpreter',
    'greenlight.sandbox.memoryLimitMB',
    'greenlight.sandbox.network',
    'greenlight.sandbox.timeLimitSeconds',
    'greenlight.server.extraArgs',
    'greenlight.server.path',
    'greenlight.temperature',
  ]);
  assert.deepEqual(serverSettings(s), {});
  assert.match(s.problems.find((p) => p.startsWith('greenlight.provider'))!, /one of "auto", "openai", "anthropic", got "gpt"/);
  assert.match(s.problems.find((p) => p.startsWith('greenlight.sandbox.timeLimitSeconds'))!, /a number > 0 or null, got number 0/);
  assert.match(s.problems.find((p) => p.startsWith('greenlight.maxTokens'))!, /an integer >= 1/);
  assert.match(s.problems.find((p) => p.startsWith('greenlight.server.path'))!, /using ""/);
  // Editor-only keys fall back to their defaults.
  assert.deepEqual(s.effective.get('server.extraArgs'), []);
});

test('the most specific scope wins: folder > workspace > user', () => {
  const s = validateSettings({
    inspect: (key: string) =>
      key === 'model' ? { globalValue: 'user', workspaceValue: 'ws', workspaceFolderValue: 'folder' } :
      key === 'provider' ? { globalValue: 'openai', workspaceValue: 'anthropic' } : undefined,
  });
  assert.deepEqual(serverSettings(s), { model: 'folder', provider: 'anthropic' });
});

test('an invalid value in a narrower scope does not fall back to the wider one silently', () => {
  const s = validateSettings({
    inspect: (key: string) => (key === 'maxRetries' ? { globalValue: 2, workspaceValue: -1 } : undefined),
  });
  assert.equal(s.problems.length, 1);
  assert.equal(s.explicit.has('maxRetries'), false);
});

test('every spec default satisfies its own kind', async () => {
  const { isValid } = await import('../src/settings');
  for (const spec of SETTINGS) assert.ok(isValid(spec.kind, spec.defaultValue), spec.key);
});

test('workspace/configuration: greenlight sections from the settings, the rest from the default handler', async () => {
  const { answerConfiguration } = await import('../src/settings');
  const s = validateSettings(source({ 'sandbox.network': true, model: 'm' }));
  assert.deepEqual(
    answerConfiguration(['editor', 'greenlight', 'greenlight.sandbox', 'files', 'greenlight.cxx', undefined], s, [
      { tabSize: 2 },
      { exclude: {} },
      'whole',
    ]),
    [{ tabSize: 2 }, { model: 'm', sandbox: { network: true } }, { network: true }, { exclude: {} }, null, 'whole'],
  );
  assert.deepEqual(answerConfiguration(['greenlight'], validateSettings(source({})), []), [{}]);
});

test('refine.*: bounded budget, preview a boolean, all sent in the DESIGN.md shape', () => {
  const ok = validateSettings(source({ 'refine.maxRounds': 10, 'refine.candidates': 8, 'refine.timeoutSeconds': 0.5, 'refine.preview': true }));
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(serverSettings(ok), { refine: { maxRounds: 10, candidates: 8, timeoutSeconds: 0.5, preview: true } });

  const bad = validateSettings(
    source({ 'refine.maxRounds': 30, 'refine.candidates': 0, 'refine.timeoutSeconds': 0, 'refine.preview': 'yes' }),
  );
  assert.deepEqual(serverSettings(bad), {}, 'nothing invalid is sent');
  const problem = (key: string) => bad.problems.find((p) => p.startsWith(`greenlight.${key}:`));
  assert.equal(problem('refine.maxRounds'), 'greenlight.refine.maxRounds: expected an integer >= 1 and <= 10, got number 30; not sent to the server (its own layers decide)');
  assert.match(problem('refine.candidates')!, /an integer >= 1 and <= 8, got number 0/);
  assert.match(problem('refine.timeoutSeconds')!, /a number > 0 and <= 3600, got number 0/);
  assert.match(problem('refine.preview')!, /true or false, got "yes"/);
  assert.equal(bad.effective.get('refine.maxRounds'), 3, 'the default stays effective');
  assert.ok(validateSettings(source({ 'refine.timeoutSeconds': 3601 })).problems.length === 1);
  assert.ok(validateSettings(source({ 'refine.maxRounds': 2.5 })).problems.length === 1);
});

test('refine.requireCoverage a boolean, generate.testsFirst one of ask/always/never, sent nested', () => {
  const ok = validateSettings(source({ 'refine.requireCoverage': true, 'generate.testsFirst': 'never' }));
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(serverSettings(ok), { refine: { requireCoverage: true }, generate: { testsFirst: 'never' } });

  const bad = validateSettings(source({ 'refine.requireCoverage': 'yes', 'generate.testsFirst': 'sometimes' }));
  assert.deepEqual(serverSettings(bad), {}, 'nothing invalid is sent');
  assert.deepEqual([...bad.problems].sort(), [
    'greenlight.generate.testsFirst: expected one of "ask", "always", "never", got "sometimes"; not sent to the server (its own layers decide)',
    'greenlight.refine.requireCoverage: expected true or false, got "yes"; not sent to the server (its own layers decide)',
  ]);
  assert.equal(bad.effective.get('generate.testsFirst'), 'ask', 'the default stays effective');
  assert.equal(bad.effective.get('refine.requireCoverage'), false);
});
