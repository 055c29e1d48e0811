import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandVariables, PathHost, resolveServerPath } from '../src/serverPath';

function host(executables: string[], overrides: Partial<PathHost> = {}): PathHost {
  return {
    env: { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/u', GL: '/from/env' },
    homedir: '/home/u',
    workspaceFolders: ['/ws'],
    trusted: true,
    platform: 'linux',
    isExecutableFile: (f) => executables.includes(f),
    ...overrides,
  };
}

test('empty setting: first greenlight on PATH', () => {
  const r = resolveServerPath('', host(['/usr/bin/greenlight', '/ws/build/greenlight']));
  assert.deepEqual(r, { ok: true, path: '/usr/bin/greenlight', source: 'PATH' });
});

test('empty setting, nothing on PATH, trusted workspace: build/greenlight', () => {
  const r = resolveServerPath('  ', host(['/ws/build/greenlight']));
  assert.deepEqual(r, { ok: true, path: '/ws/build/greenlight', source: 'workspace' });
});

test('untrusted workspace never runs the workspace binary', () => {
  const r = resolveServerPath('', host(['/ws/build/greenlight'], { trusted: false }));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.match(r.message, /not trusted/);
    assert.ok(!r.tried.includes('/ws/build/greenlight'));
    assert.deepEqual(r.tried, ['/usr/local/bin/greenlight', '/usr/bin/greenlight']);
  }
});

test('absolute setting is used as is, and is an error when not executable (no fallback)', () => {
  assert.deepEqual(resolveServerPath('/opt/gl/greenlight', host(['/opt/gl/greenlight', '/usr/bin/greenlight'])), {
    ok: true,
    path: '/opt/gl/greenlight',
    source: 'setting',
  });
  const r = resolveServerPath('/opt/missing', host(['/usr/bin/greenlight']));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /"\/opt\/missing": \/opt\/missing is not an executable file/);
});

test('variables and ~ are expanded; relative paths are taken from the first folder', () => {
  assert.deepEqual(resolveServerPath('${workspaceFolder}/out/greenlight', host(['/ws/out/greenlight'])), {
    ok: true, path: '/ws/out/greenlight', source: 'setting',
  });
  assert.deepEqual(resolveServerPath('~/bin/greenlight', host(['/home/u/bin/greenlight'])), {
    ok: true, path: '/home/u/bin/greenlight', source: 'setting',
  });
  assert.deepEqual(resolveServerPath('${env:GL}/greenlight', host(['/from/env/greenlight'])), {
    ok: true, path: '/from/env/greenlight', source: 'setting',
  });
  assert.deepEqual(resolveServerPath('build-lsp/greenlight', host(['/ws/build-lsp/greenlight'])), {
    ok: true, path: '/ws/build-lsp/greenlight', source: 'setting',
  });
});

test('bare name in the setting is looked up on PATH', () => {
  assert.deepEqual(resolveServerPath('greenlight-dev', host(['/usr/bin/greenlight-dev'])), {
    ok: true, path: '/usr/bin/greenlight-dev', source: 'setting',
  });
  const r = resolveServerPath('greenlight-dev', host([]));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /not found on PATH/);
});

test('unknown variables and a missing folder are errors, not literal paths', () => {
  assert.deepEqual(expandVariables('${nope}/x', host([])), {
    error: 'unknown variable ${nope} (supported: ${workspaceFolder}, ${userHome}, ${env:NAME})',
  });
  const r = resolveServerPath('${workspaceFolder}/greenlight', host([], { workspaceFolders: [] }));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /no folder is open/);
  const rel = resolveServerPath('bin/greenlight', host([], { workspaceFolders: [] }));
  assert.equal(rel.ok, false);
  if (!rel.ok) assert.match(rel.message, /relative but no folder is open/);
});

test('windows: PATH uses ; and .exe is tried', () => {
  const r = resolveServerPath(
    '',
    host(['C:\\gl\\greenlight.exe'], { platform: 'win32', env: { Path: 'C:\\x;C:\\gl' }, workspaceFolders: [] }),
  );
  assert.deepEqual(r, { ok: true, path: 'C:\\gl\\greenlight.exe', source: 'PATH' });
});
