#!/usr/bin/env node
'use strict';
// `greenlight run SOURCE` on node:test packages whose test files load their modules the ways
// node resolves them (node-resolve/, issue 33): the tests of a file are the test files that load
// it, never a test named after another module of the same name.
//
//   resolve_check.js --greenlight BIN        ends with "N passed, M failed"; exit 1 on a failure
//
// node-resolve/twins  an ESM package with index.js and non-secure/index.js, test/index.test.js
//                     (loads ../index.js), test/non-secure.test.js (../non-secure/index.js) and
//                     test/exports.test.js (the package's own name through "exports"); index.js
//                     loads '#alphabet' ("imports"). A bug in non-secure/index.js must fail its
//                     tests, never pass on test/index.test.js (the false green of issue 33).
// node-resolve/main   a CommonJS package whose main is lib/pad.js, loaded as require('..'),
//                     require('../') and require('../lib/pad.js') (test/pad.test.js, its
//                     namesake): every one of them runs.
// The packages are copied to the system's temporary directory (the sandbox's user must enter
// them when greenlight runs as root), bugs are injected into the copies.
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawnSync} = require('child_process');

const args = process.argv.slice(2);
const bin = args.includes('--greenlight') ? path.resolve(args[args.indexOf('--greenlight') + 1]) : null;
if (!bin) {
  console.error('usage: resolve_check.js --greenlight BIN');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-js-resolve-'));
fs.chmodSync(tmp, 0o755);
let passed = 0;
let failed = 0;
function check(ok, what, detail) {
  if (ok) passed++;
  else {
    failed++;
    console.log('FAIL ' + what + (detail ? '\n  ' + String(detail).slice(0, 2000).split('\n').join('\n  ') : ''));
  }
  return ok;
}

function copy(name) {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(__dirname, 'node-resolve', name), dir, {recursive: true});
  fs.writeFileSync(path.join(dir, '.greenlight.json'), '{}\n');  // the workspace root
  for (const d of [dir, ...fs.readdirSync(dir, {recursive: true}).map((f) => path.join(dir, f))]) {
    fs.chmodSync(d, fs.statSync(d).isDirectory() ? 0o755 : 0o644);
  }
  return dir;
}

function run(dir, rel) {
  const r = spawnSync(bin, ['run', rel, '--json'], {cwd: dir, encoding: 'utf8', timeout: 300000,
    env: {PATH: process.env.PATH, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'xdg'), LANG: 'C.UTF-8'}});
  let json = {};
  try {
    json = JSON.parse(r.stdout);
  } catch (e) {
    // an empty object: the checks below say what is missing
  }
  const tests = json.tests || [];
  return {code: r.status, json, stderr: r.stderr || '', tests,
    files: [...new Set(tests.map((t) => path.relative(dir, t.file || '')))].sort(),
    failing: tests.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => t.name)};
}

function edit(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`);
  fs.writeFileSync(file, text.replace(from, to));
  return () => fs.writeFileSync(file, text);
}

function show(r) {
  return `exit ${r.code}, files ${JSON.stringify(r.files)}, failing ${JSON.stringify(r.failing)}, ` +
    `discovery ${JSON.stringify(r.json.discovery || '')}\n${r.stderr.slice(-800)}`;
}

// ---- twins: two index.js ----
{
  const dir = copy('twins');
  let r = run(dir, 'non-secure/index.js');
  check(r.code === 0 && JSON.stringify(r.files) === JSON.stringify(['test/exports.test.js', 'test/non-secure.test.js']),
    'twins: non-secure/index.js runs the test files that load it (by path and by the package name)', show(r));
  check(/test\/index\.test\.js is named after index\.js but does not load non-secure\/index\.js/.test(r.json.discovery || ''),
    'twins: the namesake test/index.test.js is set aside, and the result says so', show(r));

  let restore = edit(path.join(dir, 'non-secure/index.js'), 'while (i--) id += urlAlphabet', 'while (--i) id += urlAlphabet');
  r = run(dir, 'non-secure/index.js');
  restore();
  check(r.code === 1 && r.failing.includes('non-secure nanoid has the default size'),
    'twins: a bug in non-secure/index.js is never green', show(r));

  r = run(dir, 'index.js');
  check(r.code === 0 && JSON.stringify(r.files) === JSON.stringify(['test/index.test.js']),
    'twins: index.js runs test/index.test.js only', show(r));
  restore = edit(path.join(dir, 'internal/alphabet.js'), "'useandom", "'Useandom");
  r = run(dir, 'internal/alphabet.js');
  restore();
  check(r.code === 1 && r.failing.includes('idFrom maps bytes to the alphabet') && r.files.includes('test/index.test.js'),
    "twins: internal/alphabet.js, loaded through package.json imports ('#alphabet'), finds test/index.test.js", show(r));

  // Only the namesake is left: no test loads non-secure/index.js: exit 3 and the reason.
  fs.rmSync(path.join(dir, 'test/non-secure.test.js'));
  fs.rmSync(path.join(dir, 'test/exports.test.js'));
  restore = edit(path.join(dir, 'non-secure/index.js'), 'while (i--) id += urlAlphabet', 'while (--i) id += urlAlphabet');
  const plain = spawnSync(bin, ['run', 'non-secure/index.js'], {cwd: dir, encoding: 'utf8', timeout: 300000,
    env: {PATH: process.env.PATH, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'xdg'), LANG: 'C.UTF-8'}});
  restore();
  check(plain.status === 3 && /no tests found near/.test(plain.stderr) &&
      /test\/index\.test\.js is named after index\.js but does not load non-secure\/index\.js: no test file loads non-secure\/index\.js/.test(plain.stderr) &&
      !/[1-9][0-9]* passed/.test(plain.stdout),
    'twins: with only the namesake left, exit 3 saying no test file loads it (never "N passed")',
    `exit ${plain.status}\n${plain.stdout.slice(-500)}\n${plain.stderr.slice(-800)}`);
}

// ---- main: require('..') ----
{
  const dir = copy('main');
  let r = run(dir, 'lib/pad.js');
  check(r.code === 0 && JSON.stringify(r.files) === JSON.stringify(['test/end.test.js', 'test/pad.test.js', 'test/start.test.js']) &&
      r.tests.length === 4,
    "main: lib/pad.js runs every test file that loads it: require('..'), require('../'), require('../lib/pad.js')", show(r));
  const restore = edit(path.join(dir, 'lib/pad.js'), "return s + fill.repeat", "return s + ' ' + fill.repeat");
  r = run(dir, 'lib/pad.js');
  restore();
  check(r.code === 1 && JSON.stringify(r.failing) === JSON.stringify(['padEnd pads on the right']),
    "main: a bug in padEnd fails the test that loads it as require('../')", show(r));
}

fs.rmSync(tmp, {recursive: true, force: true});
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
