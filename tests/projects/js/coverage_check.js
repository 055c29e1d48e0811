#!/usr/bin/env node
// Line coverage of the file under test (issue 35) agrees with the reference tools, line by
// line, and measuring it changes no outcome. For each case: greenlight runs the source file
// (js_coverage_dump: the TestService, as `greenlight run` and the language server run it), with
// coverage and with GREENLIGHT_COVERAGE=0; then the reference runs the same test files:
//   jest (jest-js, jest-ts)   jest's own V8 provider (--coverageProvider=v8: v8-to-istanbul,
//                             c8's engine, with jest's module wrapper and transform source maps)
//   mocha (mocha-js, mocha-ts) c8, pinned in coverage-ref/package-lock.json (ts-node's source
//                             maps reach it through node's source-map cache)
//   node:test (node-ts)       c8 over `node --import ts_hook.mjs --test` (amaro blanks the
//                             types in place: the .ts text is the code V8 ran)
// Checked: the same tests with the same outcomes with and without coverage, no coverage event
// without it; every line greenlight reports has c8's count, and no line c8 saw unrun that holds
// code is missing. vitest has no reference here (its V8 provider is not installed).
//
//   node coverage_check.js --dump BIN --projects DIR --node-ts DIR --c8 DIR/coverage-ref --source SRC [--warm]
// (SRC: the source tree, for ts_hook.mjs and third_party/amaro; --node-ts: tests/projects/js/node-ts,
// copied to a temporary directory first)
// --warm: each run goes to a warm spare, as on save in an editor (and must have).
// Exit 0: all agree; 1: a difference (printed); 77: nothing to check (not installed).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync, spawnSync} = require('child_process');

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--warm') args.warm = true;
  else args[a.replace(/^--/, '')] = process.argv[++i];
}
for (const k of ['dump', 'projects', 'node-ts', 'c8', 'source']) {
  if (!args[k]) {
    console.error('usage: coverage_check.js --dump BIN --projects DIR --node-ts DIR --c8 DIR --source SRC [--warm]');
    process.exit(2);
  }
}
// node-ts, copied where the sandbox's user (uid 65534 under root) can read it.
const nodeTs = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-covcheck-node-ts-'));
process.on('exit', () => fs.rmSync(nodeTs, {recursive: true, force: true}));
fs.cpSync(args['node-ts'], nodeTs, {recursive: true});
fs.writeFileSync(path.join(nodeTs, '.greenlight.json'), '{}');
(function open(p) {
  fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) open(path.join(p, e));
})(nodeTs);
const c8 = path.join(args.c8, 'node_modules/c8/bin/c8.js');
if (!fs.existsSync(c8)) {
  console.log('SKIP: c8 is not installed in ' + args.c8 + ' (install.sh --into DIR coverage-ref)');
  process.exit(77);
}

// greenlight's TypeScript hook for the node:test reference, as the harness stages it.
const harnessDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-covcheck-hook-'));
process.on('exit', () => fs.rmSync(harnessDir, {recursive: true, force: true}));
fs.copyFileSync(path.join(args.source, 'server/core/testing/harness/ts_hook.mjs'), path.join(harnessDir, 'ts_hook.mjs'));
fs.writeFileSync(path.join(harnessDir, 'amaro.js'),
  require('zlib').gunzipSync(fs.readFileSync(path.join(args.source, 'third_party/amaro/amaro.js.gz'))));

const cases = [
  {project: 'jest-js', source: 'src/money.js', ref: 'jest'},
  {project: 'jest-js', source: 'src/discount.js', ref: 'jest'},
  {project: 'jest-ts', source: 'src/set.ts', ref: 'jest'},
  {project: 'jest-ts', source: 'src/interval.ts', ref: 'jest'},
  {project: 'mocha-js', source: 'lib/parse.js', ref: 'mocha'},
  {project: 'mocha-js', source: 'lib/stringify.js', ref: 'mocha'},
  {project: 'mocha-ts', source: 'src/version.ts', ref: 'mocha'},
  {project: 'mocha-ts', source: 'src/compare.ts', ref: 'mocha'},
  {project: 'esm', source: 'src/stack.ts', ref: 'node', tests: ['test/stack.test.ts'], nodeTs: true},
  {project: 'cjs', source: 'src/average.ts', ref: 'node', tests: ['test/average.test.ts'], nodeTs: true},
  {project: 'vitest-ts', source: 'src/template.ts', ref: null},
];

function dump(file, env) {
  const argv = [file].concat(args.warm ? ['--warm'] : []);
  const out = execFileSync(args.dump, argv, {env: Object.assign({}, process.env, env), maxBuffer: 64 << 20});
  return JSON.parse(out.toString());
}

// istanbul JSON (coverage-final.json) -> Map(line -> count) for `file`.
function istanbulLines(json, file) {
  const entry = json[file];
  if (!entry) return null;
  const m = new Map();
  for (const k of Object.keys(entry.statementMap)) m.set(entry.statementMap[k].start.line, entry.s[k]);
  return m;
}

function run(cmd, argv, cwd, env) {
  const r = spawnSync(cmd, argv, {cwd, env: Object.assign({}, process.env, env || {}), encoding: 'utf8', maxBuffer: 64 << 20});
  if (r.error) throw r.error;
  return r;
}

function reference(c, root, testFiles, tmp) {
  const file = path.join(root, c.source);
  const report = path.join(tmp, 'report');
  if (c.ref === 'jest') {
    // One test file at a time, summed: greenlight sums what each module instance ran (jest loads
    // the source once per test file), while jest merges the files' V8 ranges before counting,
    // which can leave a line run by two files counted once.
    let sum = null;
    for (const [i, t] of testFiles.entries()) {
      const dir = report + i;
      run(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '--ci', '--runInBand', '--coverage',
        '--coverageProvider=v8', '--coverageReporters=json', '--coverageDirectory=' + dir,
        '--collectCoverageFrom=' + c.source, '--cacheDirectory=' + path.join(tmp, 'cache'), '--runTestsByPath', t], root);
      const json = path.join(dir, 'coverage-final.json');
      const one = fs.existsSync(json) ? istanbulLines(JSON.parse(fs.readFileSync(json, 'utf8')), file) : null;
      if (!one) continue;
      sum = sum || new Map();
      for (const [l, n] of one) sum.set(l, (sum.get(l) || 0) + n);
    }
    return sum;
  } else if (c.ref === 'mocha') {
    // The project's .mocharc without its spec (mocha adds the files named to it, never replaces).
    const rc = ['.mocharc.yml', '.mocharc.yaml'].map((n) => path.join(root, n)).find((p) => fs.existsSync(p));
    const conf = path.join(tmp, 'mocharc.yml');
    fs.writeFileSync(conf, (rc ? fs.readFileSync(rc, 'utf8') : '').split('\n').filter((l) => !/^spec:/.test(l)).join('\n'));
    run(process.execPath, [c8, '--reporter=json', '--report-dir=' + report, '--temp-directory=' + path.join(tmp, 'raw'),
      '--include=' + c.source, process.execPath, path.join(root, 'node_modules/mocha/bin/mocha.js'), '--config', conf,
      '--no-parallel', ...testFiles], root);
  } else {
    run(process.execPath, [c8, '--reporter=json', '--report-dir=' + report, '--temp-directory=' + path.join(tmp, 'raw'),
      '--include=' + c.source, process.execPath, '--import', path.join(harnessDir, 'ts_hook.mjs'), '--test', ...testFiles], root);
  }
  const json = path.join(report, 'coverage-final.json');
  if (!fs.existsSync(json)) return null;
  return istanbulLines(JSON.parse(fs.readFileSync(json, 'utf8')), file);
}

// A line that holds code by a rough reading (for lines greenlight left out).
function looksLikeCode(text) {
  const t = text.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '').replace(/^\s*\*.*$/, '');
  return /[A-Za-z0-9_$]/.test(t);
}

let failures = 0, checked = 0;
for (const c of cases) {
  const root = path.join(c.nodeTs ? nodeTs : args.projects, c.project);
  const file = path.join(root, c.source);
  const name = c.project + '/' + c.source;
  if (!fs.existsSync(file) || (!c.nodeTs && !fs.existsSync(path.join(root, 'node_modules')))) {
    console.log('skip ' + name + ': not installed');
    continue;
  }
  checked++;
  const problems = [];
  const on = dump(file, {});
  const off = dump(file, {GREENLIGHT_COVERAGE: '0'});
  // (jest orders its test files by the durations it cached: compared as sets)
  const outcome = (d) => d.error + '\n' + d.tests.map((t) => t.id + ' ' + t.status + ' ' + t.message).sort().join('\n');
  if (outcome(on) !== outcome(off)) problems.push('outcomes differ with and without coverage:\n--- with\n' + outcome(on) + '\n--- without\n' + outcome(off));
  if (off.coverage.length) problems.push('GREENLIGHT_COVERAGE=0 still measured ' + off.coverage.map((x) => x.file).join(', '));
  if (!on.tests.length) problems.push('no test ran: ' + on.error);
  // --warm checks what a run on save measures: the run handed to a spare that loaded the runner
  // without counters, then counted and dropped what its loading ran (js_warm.js: compileEagerly,
  // js_coverage.js: settle), not a cold rerun.
  if (args.warm && !(on.warmUsed > 0 && off.warmUsed > 0)) problems.push('a run did not go to a warm spare');
  const mine = on.coverage.find((x) => x.file === file);
  if (!mine || !mine.lines.length) problems.push('no coverage of ' + file + ' (got ' + JSON.stringify(on.coverage.map((x) => x.file)) + ')');
  if (on.coverage.some((x) => x.file !== file)) problems.push('coverage of other files: ' + on.coverage.map((x) => x.file).join(', '));
  let summary = '';
  if (mine && c.ref) {
    const testFiles = c.tests || [...new Set(on.tests.map((t) => t.id.split('::')[0]))];
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-covcheck-'));
    let ref = null;
    try {
      ref = reference(c, root, testFiles, tmp);
    } finally {
      fs.rmSync(tmp, {recursive: true, force: true});
    }
    if (!ref) {
      problems.push('the reference measured nothing for ' + file);
    } else {
      const text = fs.readFileSync(file, 'utf8').split('\n');
      const got = new Map(mine.lines);
      let run = 0;
      for (const [line, n] of got) {
        if (n > 0) run++;
        if (!ref.has(line)) problems.push(`line ${line}: greenlight ${n}, the reference has no such line`);
        else if (ref.get(line) !== n) problems.push(`line ${line}: greenlight ${n}, reference ${ref.get(line)}: ${text[line - 1].trim()}`);
      }
      for (const [line, n] of ref) {
        if (n === 0 && !got.has(line) && looksLikeCode(text[line - 1] || '')) {
          problems.push(`line ${line}: unrun for the reference, left out by greenlight: ${text[line - 1].trim()}`);
        }
      }
      summary = `${got.size} code lines, ${run} run, ${got.size - run} not run; ${c.ref === 'jest' ? 'jest --coverageProvider=v8' : 'c8'} agrees`;
    }
  } else if (mine) {
    summary = `${mine.lines.length} code lines, ${mine.lines.filter((l) => l[1] > 0).length} run (no reference)`;
  }
  if (problems.length) {
    failures++;
    console.log('FAIL ' + name + '\n  ' + problems.join('\n  '));
  } else {
    console.log(`ok   ${name}: ${on.tests.length} tests, same outcomes without coverage; ${summary}`);
  }
}
if (!checked) {
  console.log('SKIP: no project installed under ' + args.projects);
  process.exit(77);
}
process.exit(failures ? 1 : 0);
