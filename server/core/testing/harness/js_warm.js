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
// change before the run), with one exception that is checked at the run: ts-jest's compiler
// (below). The preload runs in GL_WARM_ROOT, the run's working directory. Then it blocks
// reading fd 1023, as node_warm.js does.
//
// ts-jest spends about two seconds of every run building a TypeScript language service (lib
// and @types parsed, bound and checked) before the first test, even when jest's cache holds
// every file. It keeps that service for the process, keyed by the jest project config
// (TsJestTransformer._cachedConfigSets). With the run's flags and test files (the JSON third
// argument: {"argv": [...], "files": [...]}) the spare reads the project config as the run will
// and has ts-jest transform the test files, so the run finds the service built. Warm must equal
// cold: every question that build asked the filesystem (reads, stats, listings, realpaths) is
// recorded with its answer and asked again when the run comes. A project source file whose text
// changed is handed to the service as a new version (as ts-jest does with each file jest
// transforms); any other difference (a file or directory came or went, tsconfig or a
// package.json changed, a source the service never read) drops the prepared service and the
// run builds its own, exactly as cold. What the build printed is held and printed at the run.
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

// ---- the filesystem as the warm build saw it ----
// fs's methods are wrapped only while ts-jest's compiler is built, and put back before the run:
// the run sees node's own fs. (TypeScript took fs.realpathSync.native when it loaded: realpaths
// are not recorded; they change only when a symlink does.)
const crypto = require('crypto');
const recorded = new Map();  // "method\0path" -> {method, args, answer}
const passThrough = new Map();  // method -> node's own
const kRecorded = ['readFileSync', 'existsSync', 'statSync', 'lstatSync', 'readdirSync', 'accessSync'];

function answerOf(method, fn, args) {
  try {
    const r = fn.apply(fs, args);
    if (method === 'readFileSync') return 'f:' + crypto.createHash('sha1').update(r).digest('hex');
    if (method === 'existsSync') return r ? 'yes' : 'no';
    if (method === 'statSync' || method === 'lstatSync') {
      if (r === undefined) return 'missing';
      return r.isDirectory() ? 'dir' : r.isFile() ? 'file' : r.isSymbolicLink() ? 'link' : 'other';
    }
    if (method === 'readdirSync') {
      return 'l:' + r.map((e) => (typeof e === 'string' || Buffer.isBuffer(e) ? String(e) : e.name + (e.isDirectory() ? '/' : '')))
        .sort().join('\0');
    }
    return 'r:' + String(r);
  } catch (e) {
    return 'E:' + (e && e.code);
  }
}

// Wraps fs's methods to record each first question and its answer; returns what puts them back.
function recordFilesystem() {
  for (const method of kRecorded) {
    const fn = fs[method];
    passThrough.set(method, fn);
    fs[method] = function (...args) {
      if (args.length > 0 && (typeof args[0] === 'string' || Buffer.isBuffer(args[0]))) {
        const key = method + '\0' + String(args[0]);
        if (!recorded.has(key)) recorded.set(key, {method, args, answer: answerOf(method, fn, args)});
      }
      return fn.apply(this, args);
    };
  }
  return () => {
    for (const method of kRecorded) fs[method] = passThrough.get(method);
  };
}

const warmTsJest = {transformers: [], held: [], ready: false};

function isProjectSource(file) {
  return !file.split(path.sep).includes('node_modules') && /\.[cm]?[jt]sx?$/.test(file);
}

// At the run: what changed since the build, and either the service brought up to date or
// dropped. Returns what was done, for the test of this file.
function checkTsJest() {
  if (!warmTsJest.ready) return 'none';
  const changedSources = [];
  let drop = false;
  for (const {method, args, answer} of recorded.values()) {
    if (answerOf(method, passThrough.get(method), args) === answer) continue;
    const file = String(args[0]);
    if (method === 'readFileSync' && isProjectSource(file)) changedSources.push(file);
    else drop = true;
  }
  const classes = new Set(warmTsJest.transformers.map((t) => t.constructor));
  const compilers = [];
  for (const cls of classes) {
    for (const cs of cls._cachedConfigSets || []) {
      const c = cs.compiler && cs.compiler._compilerInstance;
      if (c && c._fileContentCache instanceof Map && typeof c._updateMemoryCache === 'function') compilers.push(c);
      else drop = true;
    }
  }
  if (!drop) {
    for (const file of changedSources) {
      const known = compilers.filter((c) => c._fileContentCache.has(path.normalize(file)));
      if (known.length === 0) {
        drop = true;
        break;
      }
      let text;
      try {
        text = passThrough.get('readFileSync').call(fs, file, 'utf8');
      } catch (e) {
        drop = true;
        break;
      }
      for (const c of known) c._updateMemoryCache(text, path.normalize(file));
    }
  }
  if (drop) {
    for (const cls of classes) if (Array.isArray(cls._cachedConfigSets)) cls._cachedConfigSets.length = 0;
    return 'dropped';
  }
  for (const [stream, chunk] of warmTsJest.held) stream.write(chunk);
  return changedSources.length ? 'updated' : 'reused';
}

// Builds ts-jest's compiler for the run's project config and test files (see the top).
async function buildTsJest(bases, root, hints) {
  const jestCli = preload(bases, 'jest-cli');
  const jestConfig = preload(bases, 'jest-config');
  if (!jestCli || !jestConfig || typeof jestCli.buildArgv !== 'function' || !Array.isArray(hints.files)) return;
  const writes = {out: process.stdout.write, err: process.stderr.write};
  const hold = (stream) => (chunk, encoding, callback) => {
    warmTsJest.held.push([stream, Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? encoding : 'utf8')]);
    if (typeof encoding === 'function') encoding();
    else if (typeof callback === 'function') callback();
    return true;
  };
  // What reading the config prints the run prints again itself; what ts-jest prints building
  // its compiler only a cold run would: that is held for the run.
  const discard = (chunk, encoding, callback) => {
    if (typeof encoding === 'function') encoding();
    else if (typeof callback === 'function') callback();
    return true;
  };
  process.stdout.write = discard;
  process.stderr.write = discard;
  const stopRecording = recordFilesystem();
  try {
    const argv = await jestCli.buildArgv(hints.argv || []);
    const {configs} = await jestConfig.readConfigs(argv, [root]);
    process.stdout.write = hold(process.stdout);
    process.stderr.write = hold(process.stderr);
    for (const config of configs) {
      for (const file of hints.files) {
        const entry = (config.transform || []).find(([pattern]) => new RegExp(pattern).test(file));
        if (!entry || !entry[1].split(path.sep).includes('ts-jest')) continue;
        let factory = require(entry[1]);
        if (factory && factory.__esModule && factory.default) factory = factory.default;
        const transformer = typeof factory.createTransformer === 'function' ? await factory.createTransformer(entry[2]) : factory;
        if (!transformer || typeof transformer.process !== 'function' || !transformer.constructor) continue;
        warmTsJest.transformers.push(transformer);
        const options = {config, configString: JSON.stringify(config), cacheFS: new Map(), instrument: false,
          supportsDynamicImport: false, supportsExportNamespaceFrom: false, supportsStaticESM: false,
          supportsTopLevelAwait: false, transformerConfig: entry[2]};
        const text = fs.readFileSync(file, 'utf8');
        transformer.getCacheKey(text, file, options);
        transformer.process(text, file, options);
      }
    }
    warmTsJest.ready = warmTsJest.transformers.length > 0;
  } catch (e) {
    // The run builds it as cold (a failing transform fails there, where it is reported).
    for (const t of warmTsJest.transformers) if (Array.isArray(t.constructor._cachedConfigSets)) t.constructor._cachedConfigSets.length = 0;
    warmTsJest.ready = false;
    warmTsJest.held = [];
  } finally {
    stopRecording();
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
  if (!warmTsJest.ready) warmTsJest.held = [];
}

// vite (7) loads the config through a module runner that registers a module resolve hook
// (module.register): node then starts its hooks thread, about 30 ms of the run. Started here,
// with a hook that only passes each resolution on, the run's registration joins a running thread.
// Every resolution resolves as it would without it. Only where vite itself would register one:
// with module.registerHooks (node >= 22.15) vite hooks in-thread, and there is no thread to start.
function startLoaderHooksThread(viteDir) {
  if (!viteDir || typeof Module.register !== 'function' || typeof Module.registerHooks === 'function') return;
  try {
    const runner = fs.readFileSync(path.join(viteDir, 'dist', 'node', 'module-runner.js'), 'utf8');
    if (!runner.includes('createImportMetaResolver') || !runner.includes('module.register(')) return;
    Module.register('data:text/javascript,' +
      encodeURIComponent('export async function resolve(specifier, context, next) { return next(specifier, context); }'));
  } catch (e) {
    // the run starts the thread itself
  }
}

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
  const counting = process.env.GL_COVERAGE === '1';
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
  if (counting) {
    try {
      require(path.join(__dirname, 'js_coverage.js')).watchCompiles();
    } catch (e) {
      // the Debugger tells the targets' texts
    }
    compileEagerly(true);
  }
  try {
    await loadRunner(runner, root, bases);
  } finally {
    if (counting) {
      compileEagerly(false);
      try {
        require(path.join(__dirname, 'js_coverage.js')).prestart();
      } catch (e) {
        // the run starts it, later and slower
      }
    }
  }
  if (runner === 'jest') {
    let hints = null;
    try {
      hints = process.argv[3] ? JSON.parse(process.argv[3]) : null;
    } catch (e) {
      hints = null;
    }
    if (hints && preload(bases, 'ts-jest')) await buildTsJest(bases, root, hints);
  }
}

// Line coverage (issue 35) counts in every function V8 compiles once counting has started
// (js_coverage.js: prestart), and only in those: a function's block counters are part of the
// bytecode it is compiled to. V8 compiles a function when it is first called, so the runner's
// own functions, loaded here but first called by the run, would be compiled by the run, with
// counters that slow every block they run and fill the run's take. Compiled here, eagerly
// (V8's --no-lazy, for the loading only) and before counting starts, they have none; what the
// project's files compile to, loaded by the run, has them. Nothing else changes: the same
// modules load, in the same order, to the same code. Counting starts before ts-jest builds its
// service, so what that build optimized stays optimized for the run (the switch deoptimizes).
// On a run on save of jest-ts, with coverage against without went from 1.33 to 1.05 (mocha-js
// 1.27 to 0.96-1.06). Only with coverage: loaded eagerly without it, no run was faster (about
// 740 ms against 700 lazily on jest-ts), and the spare holds more (typescript: 86 MB resident
// loaded lazily, 140 MB eagerly).
function compileEagerly(on) {
  try {
    require('v8').setFlagsFromString(on ? '--no-lazy' : '--lazy');
  } catch (e) {
    // the run compiles them, with counters
  }
}

// What a cold run of `runner` loads in node's own module system, loaded from `bases`.
async function loadRunner(runner, root, bases) {
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
      startLoaderHooksThread(packageDir(dir, 'vite') || packageDir(root, 'vite'));
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
  checkTsJest();
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  const script = path.resolve(argv[i] || '');
  // In place: a module loaded before the run may hold process.argv itself (cac, vitest's CLI
  // parser, keeps the array it saw when it loaded).
  process.argv.splice(0, process.argv.length, process.argv[0], script, ...argv.slice(i + 1));
  delete require.cache[__filename];
  Module.runMain(script);
}

// Loaded: what the runner's loading ran leaves coverage's count (js_coverage.js: settle).
function settleCoverage() {
  if (process.env.GL_COVERAGE !== '1') return;
  try {
    require(path.join(__dirname, 'js_coverage.js')).settle();
  } catch (e) {
    // the run's take reports more
  }
}

greenlightWarmLoad().catch(() => {}).then(settleCoverage).then(greenlightWarmRun);
/*
)GLJS" // */
