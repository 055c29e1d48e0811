'use strict';
// How greenlight runs a JavaScript project's own runner, written once for the scripts of this
// folder (verify.js, groundtruth.js, bench) and as the reference for the C++ adapters: the same
// argv and environment, the same reading of the events and of the runner's own JSON report.
//
// Reporter runs (what the sandbox runs; cwd = the project's directory, the one of package.json):
//   jest:   node <jest>/bin/jest.js --ci --no-watchman --reporters=<gl>/jest_reporter.js
//           --testLocationInResults --cacheDirectory=<cache>/jest --runTestsByPath FILE... [-t RE]
//   vitest: node <vitest>/vitest.mjs run FILE... --reporter=<gl>/vitest_reporter.mjs --no-cache
//           [--configLoader runner (vite >= 6.1)] [--includeTaskLocation (vitest >= 3)]
//           [--minWorkers=0 (vitest 1 to 3)] [-t RE]
//   mocha:  GL_MOCHA_FILES=<abs FILE lines> node <mocha>/bin/mocha.js --no-parallel
//           --require <gl>/mocha_reporter.js --reporter <gl>/mocha_reporter.js FILE... [--grep RE]
// with env NO_COLOR=1 FORCE_COLOR=0 CI=1 HOME=TMPDIR=<tmp>.
const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');

const HARNESS = path.resolve(__dirname, '../../../server/core/testing/harness');
const GL_FILES = ['js_events.js', 'js_coverage.js', 'vitest_coverage.mjs', 'jest_reporter.js', 'vitest_reporter.mjs',
  'mocha_reporter.js', 'js_probe.js',
  'js_warm.js', 'ts_hook.mjs'];

// Greenlight's runner-side files, written out the way the runner stages them in /work/.gl: the
// file without its two C++ wrapper lines at each end.
function stageGl(dir) {
  fs.mkdirSync(dir, {recursive: true});
  for (const name of GL_FILES) {
    const src = path.join(HARNESS, name);
    if (!fs.existsSync(src)) continue;
    fs.writeFileSync(path.join(dir, name), unwrap(fs.readFileSync(src, 'utf8')));
  }
  // Vendored files are written byte for byte (like acornParser()).
  const amaro = path.join(HARNESS, '../../../../third_party/amaro/amaro.js.gz');
  fs.writeFileSync(path.join(dir, 'amaro.js'), require('zlib').gunzipSync(fs.readFileSync(amaro)));
  return dir;
}

// Harnesses.cpp's unwrap(raw, "*/", "/*"), in JavaScript: after the first line holding "*/",
// up to the last line holding "/*".
function unwrap(text) {
  const open = text.indexOf('*/');
  if (open >= 0) text = text.slice(text.indexOf('\n', open) + 1);
  const close = text.lastIndexOf('/*');
  if (close >= 0) text = text.slice(0, text.lastIndexOf('\n', close) + 1);
  return text;
}

// The runner package's file, found from the project's directory as node finds packages
// (nested or hoisted node_modules).
function resolveFrom(dir, request) {
  try {
    return require.resolve(request, {paths: [dir]});
  } catch (e) {
    return null;
  }
}

// A package's directory as node's lookup finds it from `dir`: <dir>/node_modules/<name>, then
// each parent's (nested, then hoisted). A package's "exports" do not hide its bin files here.
function packageDir(dir, name) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (d === path.dirname(d)) return null;
  }
}

function packageVersion(dir, name) {
  const p = packageDir(dir, name);
  return p ? JSON.parse(fs.readFileSync(path.join(p, 'package.json'), 'utf8')).version : null;
}

const BINS = {jest: [['jest', 'bin/jest.js'], ['jest-cli', 'bin/jest.js']], vitest: [['vitest', 'vitest.mjs']],
  mocha: [['mocha', 'bin/mocha.js'], ['mocha', 'bin/mocha']]};

function runnerBin(runner, dir) {
  if (!BINS[runner]) throw new Error('unknown runner ' + runner);
  for (const [name, bin] of BINS[runner]) {
    const p = packageDir(dir, name);
    if (p && fs.existsSync(path.join(p, bin))) return path.join(p, bin);
  }
  return null;
}

function major(v) {
  return v ? Number(String(v).split('.')[0]) : 0;
}

function versionAtLeast(v, want) {
  if (!v) return false;
  const a = String(v).split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    if ((a[i] || 0) !== want[i]) return (a[i] || 0) > want[i];
  }
  return true;
}

function escapeRegExp(text) {
  return String(text).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// The pattern that selects tests by their title paths (each an array of titles). jest and
// vitest match it against the titles joined with ' ' (vitest 1 and 2 put an unnamed suite or
// the file's name first), mocha against fullTitle(), also ' '-joined.
function titlePattern(runner, titlePaths) {
  const alts = titlePaths.map((t) => escapeRegExp(t.join(' '))).join('|');
  return runner === 'jest' ? `^(${alts})$` : `(^|\\s)(${alts})$`;
}

function baseEnv(tmp) {
  const env = {PATH: process.env.PATH, HOME: tmp, TMPDIR: tmp, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', LANG: 'C.UTF-8'};
  return env;
}

// argv and env of a reporter run over `files` (absolute), optionally only the tests `titlePaths`.
function reporterCommand(runner, dir, gl, files, {titlePaths, cache = '/tmp/gl-cache'} = {}) {
  const bin = runnerBin(runner, dir);
  if (!bin) throw new Error(`${runner} is not installed for ${dir} (run tests/projects/js/install.sh)`);
  const env = baseEnv(process.env.TMPDIR || '/tmp');
  const rel = files.map((f) => path.relative(dir, f));
  let argv;
  if (runner === 'jest') {
    argv = [process.execPath, bin, '--ci', '--no-watchman', `--reporters=${gl}/jest_reporter.js`,
      '--testLocationInResults', `--cacheDirectory=${cache}/jest`, '--runTestsByPath', ...files];
    if (titlePaths) argv.push('-t', titlePattern(runner, titlePaths));
  } else if (runner === 'vitest') {
    const v = packageVersion(dir, 'vitest');
    const vite = packageVersion(dir, 'vite');
    argv = [process.execPath, bin, 'run', ...rel, `--reporter=${gl}/vitest_reporter.mjs`, '--no-cache'];
    if (versionAtLeast(vite, [6, 1])) argv.push('--configLoader', 'runner');
    if (major(v) >= 3) argv.push('--includeTaskLocation');
    if (major(v) >= 1 && major(v) < 4) argv.push('--minWorkers=0');
    if (titlePaths) argv.push('-t', titlePattern(runner, titlePaths));
  } else {
    env.GL_MOCHA_FILES = files.join('\n');
    argv = [process.execPath, bin, '--no-parallel', '--require', `${gl}/mocha_reporter.js`,
      '--reporter', `${gl}/mocha_reporter.js`, ...rel];
    if (titlePaths) argv.push('--grep', titlePattern(runner, titlePaths));
  }
  return {argv, env, cwd: dir};
}

// The runner's own JSON report over the whole project (or `files`), as groundtruth.js reads it.
function jsonCommand(runner, dir, outFile, {files, cache = '/tmp/gl-cache'} = {}) {
  const bin = runnerBin(runner, dir);
  if (!bin) throw new Error(`${runner} is not installed for ${dir} (run tests/projects/js/install.sh)`);
  const env = baseEnv(process.env.TMPDIR || '/tmp');
  let argv;
  if (runner === 'jest') {
    argv = [process.execPath, bin, '--ci', '--no-watchman', '--json', `--outputFile=${outFile}`,
      `--cacheDirectory=${cache}/jest`];
    if (files) argv.push('--runTestsByPath', ...files);
  } else if (runner === 'vitest') {
    argv = [process.execPath, bin, 'run', ...(files || []).map((f) => path.relative(dir, f)), '--reporter=json',
      `--outputFile=${outFile}`, '--no-cache'];
    if (versionAtLeast(packageVersion(dir, 'vite'), [6, 1])) argv.push('--configLoader', 'runner');
  } else {
    argv = [process.execPath, bin, '--no-parallel', '--reporter', 'json', '--reporter-option', `output=${outFile}`];
  }
  return {argv, env, cwd: dir};
}

function run(cmd, {timeout = 300000} = {}) {
  const r = spawnSync(cmd.argv[0], cmd.argv.slice(1), {cwd: cmd.cwd, env: cmd.env, encoding: 'utf8',
    timeout, maxBuffer: 64 * 1024 * 1024});
  return {code: r.status, signal: r.signal, stdout: r.stdout || '', stderr: r.stderr || ''};
}

// The events of a run's stdout (EVENTS.md's wire), and the rest of it.
function parseEvents(stdout) {
  const events = [];
  const rest = [];
  for (const line of stdout.split('\n')) {
    if (line.startsWith('\x1eGL ')) events.push(JSON.parse(line.slice(4)));
    else rest.push(line);
  }
  return {events, rest: rest.join('\n')};
}

// (file, id, status) triples, statuses as the runners' JSON reports can tell them apart:
// passed, failed (greenlight's error and timeout too), skipped; a file that did not load:
// its "(collection)" id with status error.
function normalizeStatus(s) {
  if (s === 'passed') return 'passed';
  if (s === 'failed' || s === 'timeout') return 'failed';
  if (s === 'error') return 'failed';
  return 'skipped';
}

function fromEvents(events) {
  const out = [];
  for (const e of events) {
    if (e.ev !== 'result') continue;
    const collection = e.id.endsWith('::(collection)');
    out.push({file: e.file, id: collection ? e.id : e.id, status: collection ? 'error' : normalizeStatus(e.status)});
  }
  return out;
}

function rel(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

// The runner's JSON report as triples. mocha's report has no title path, only fullTitle
// (' '-joined): its ids are "<file>::<fullTitle>" and the events' ids are compared in that form.
function fromJson(runner, root, report) {
  const out = [];
  if (runner === 'jest' || runner === 'vitest') {
    for (const f of report.testResults || []) {
      const results = f.assertionResults || f.testResults || [];
      for (const a of results) {
        const titles = [...(a.ancestorTitles || []).filter((t, i) => !(i === 0 && t === '')), a.title];
        const status = a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped';
        out.push({file: f.name, id: rel(root, f.name) + '::' + titles.join(' > '), status});
      }
      if (f.status === 'failed' && results.length === 0) {
        out.push({file: f.name, id: rel(root, f.name) + '::(collection)', status: 'error'});
      }
    }
    return out;
  }
  const key = (t) => (t.file || '') + '\0' + t.fullTitle;
  const passes = new Set((report.passes || []).map(key));
  const pending = new Set((report.pending || []).map(key));
  const seen = new Set();
  for (const t of report.tests || []) {
    const status = passes.has(key(t)) ? 'passed' : pending.has(key(t)) ? 'skipped' : 'failed';
    seen.add(key(t));
    out.push({file: t.file, id: rel(root, t.file || '') + '::' + t.fullTitle, status});
  }
  for (const t of report.failures || []) {  // hooks that failed are in failures, not in tests
    if (seen.has(key(t))) continue;
    out.push({file: t.file, id: rel(root, t.file || '') + '::' + t.fullTitle, status: 'failed'});
  }
  return out;
}

// Events' ids in mocha's JSON form: the title path joined with ' ' (see fromJson).
function mochaForm(triples) {
  return triples.map((t) => {
    if (t.id.endsWith('::(collection)')) return t;
    const i = t.id.indexOf('::');
    return {...t, id: t.id.slice(0, i + 2) + t.id.slice(i + 2).split(' > ').join(' ')};
  });
}

module.exports = {HARNESS, stageGl, unwrap, resolveFrom, packageDir, packageVersion, runnerBin, titlePattern, escapeRegExp,
  reporterCommand, jsonCommand, run, parseEvents, fromEvents, fromJson, mochaForm, normalizeStatus, rel,
  versionAtLeast, major, baseEnv};
