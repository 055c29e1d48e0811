//\
/*
R"GLJS(
*/
// greenlight's warm start for a project's own JS runner (jest, vitest, mocha): the process a
// warm spare starts before its run comes (sandbox Policy::WarmStart), in the project's sandbox,
// with the run's flags. Embedded like node_harness.js; written to /work/.gl beside the reporters.
//
//   GL_WARM_RUNNER=jest|vitest|mocha GL_WARM_ROOT=<project dir> node /work/.gl/js_warm.js
//
// Before the run: the runner's own modules that its CLI loads in the main process are loaded
// and compiled, found from GL_WARM_ROOT as node finds packages:
//   jest    jest-cli, @jest/core, jest-config, jest-haste-map, jest-runtime, jest-runner,
//           @jest/transform, jest-circus, jest-environment-node, babel-jest/@babel/core, and
//           ts-jest with typescript when the project has them (a one-file run is in band: the
//           test file runs in this process, inside jest's vm context);
//   vitest  vitest/node (vite, the config loader, the pool); the tests run in vitest's workers,
//           which start at the run as they would cold;
//   mocha   mocha's CLI and library, and greenlight's mocha reporter (it patches mocha before
//           the spec files load).
// Nothing of the project itself is loaded (no config file, no test, no source: they may
// change before the run). The preload runs in GL_WARM_ROOT, the run's working directory. Then it blocks reading fd 1023, as node_warm.js does.
// At the run: fd 1023 carries "<argc>\0<envc>\0", argv, envp and the workdir (each
// NUL-terminated), then EOF. The environment becomes envp, the working directory the workdir,
// process.argv what `node [flags] script args` gives, and the script (the runner's bin, e.g.
// node_modules/jest/bin/jest.js) runs as the main module: the runner's CLI runs exactly as cold,
// with its modules already in the cache. The process serves one run and exits with it.
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');
const {pathToFileURL} = require('url');

function packageDir(from, name) {
  for (let d = path.resolve(from); ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (d === path.dirname(d)) return null;
  }
}

// Requires `name` as the runner would find it: from the project, then from each loaded package.
function preload(bases, name) {
  for (const base of bases) {
    try {
      const req = Module.createRequire(path.join(base, 'package.json'));
      const exported = req(name);
      const dir = packageDir(base, name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]);
      if (dir && !bases.includes(dir)) bases.push(dir);
      return exported;
    } catch (e) {
      // next base
    }
  }
  return null;
}

async function greenlightWarmLoad() {
  const runner = process.env.GL_WARM_RUNNER;
  const root = process.env.GL_WARM_ROOT || process.cwd();
  // In the directory the run will have (the project's): modules capture it when they load
  // (mocha's stack filter strips `process.cwd() + '/'` from every frame).
  try {
    process.chdir(root);
  } catch (e) {
    // the run sets it anyway
  }
  const bases = [root];
  if (runner === 'jest') {
    // What a cold in-band run loads in node's own module system (traced on jest 29 and 30).
    for (const name of ['jest', 'jest-cli', '@jest/core', 'jest-config', 'jest-haste-map', 'jest-resolve',
      'jest-resolve-dependencies', 'jest-runtime', 'jest-runner', '@jest/transform', '@jest/reporters',
      'jest-circus', 'jest-circus/runner', 'jest-environment-node', '@jest/environment', '@jest/fake-timers',
      '@sinonjs/fake-timers', 'jest-mock', 'jest-snapshot', 'expect', '@jest/expect', '@jest/expect-utils',
      'jest-matcher-utils', 'jest-diff', 'pretty-format', 'jest-message-util', 'jest-each', 'jest-util',
      'jest-validate', 'jest-watcher', 'jest-worker', 'jest-regex-util', 'jest-docblock', '@jest/console',
      '@jest/test-result', '@jest/test-sequencer', '@jest/schemas', 'babel-jest', 'babel-preset-jest',
      '@babel/core', '@babel/types', '@babel/generator', '@babel/traverse', 'graceful-fs', 'micromatch',
      'source-map', 'semver', 'yargs', 'chalk', 'ts-jest', 'typescript']) {
      preload(bases, name);
    }
    try {
      require(path.join(__dirname, 'jest_reporter.js'));
    } catch (e) {
      // loaded again by the run
    }
  } else if (runner === 'vitest') {
    const dir = packageDir(root, 'vitest');
    if (dir) {
      await import(pathToFileURL(path.join(dir, 'dist', 'node.js')).href).catch(() => {});
    }
  } else if (runner === 'mocha') {
    const dir = packageDir(root, 'mocha');
    if (dir) {
      for (const file of ['lib/mocha.js', 'lib/cli/cli.js', 'lib/cli/run.js', 'lib/cli/run-helpers.js',
        'lib/cli/options.js', 'lib/reporters/base.js']) {
        try {
          require(path.join(dir, file));
        } catch (e) {
          // the run loads it
        }
      }
      try {
        require(path.join(__dirname, 'mocha_reporter.js'));
      } catch (e) {
        // the run loads it
      }
    }
  }
}

function greenlightWarmRun() {
  const chunks = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    let n;
    try {
      n = fs.readSync(1023, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN' || e.code === 'EINTR') continue;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  fs.closeSync(1023);
  const parts = Buffer.concat(chunks).toString('utf8').split('\0');
  const argc = Number(parts[0]), envc = Number(parts[1]);
  const argv = parts.slice(2, 2 + argc);
  const env = parts.slice(2 + argc, 2 + argc + envc);
  const workdir = parts[2 + argc + envc];

  for (const key of Object.keys(process.env)) delete process.env[key];
  for (const kv of env) {
    const eq = kv.indexOf('=');
    if (eq > 0) process.env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  process.chdir(workdir);
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  const script = path.resolve(argv[i] || '');
  // In place: a module loaded before the run may hold process.argv itself (cac, vitest's CLI
  // parser, keeps the array it saw when it loaded).
  process.argv.splice(0, process.argv.length, process.argv[0], script, ...argv.slice(i + 1));
  delete require.cache[__filename];
  Module.runMain(script);
}

greenlightWarmLoad().catch(() => {}).then(greenlightWarmRun);
/*
)GLJS" // */
