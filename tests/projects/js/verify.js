#!/usr/bin/env node
'use strict';
// Does greenlight's reporter agree with the runner's own JSON report, test by test?
//
//   node tests/projects/js/verify.js [--project NAME]... [--no-bugs] [--no-select] [--gl DIR] [--keep]
//
// For each project of projects.json (installed by install.sh):
//  1. the runner's own JSON report over the whole project is the ground truth (groundtruth.js);
//  2. every test file it names runs alone with greenlight's reporter (runjs.js's command lines):
//     (id, status) from the events must equal the report's for that file, as a multiset, and the
//     events must keep EVENTS.md (collected before or with results, one result per start, a
//     file:line on each test, done with the runner's exit code);
//  3. one test per file runs selected by its title path: its result and no other test's;
//  4. each injected bug (a one-line edit) is applied, both runs repeat on the files it touches,
//     the ids it lists must fail in both, agree otherwise, and show Expected/Received.
// The project files are restored after each bug, also when interrupted. Ends with the plain
// "N passed, M failed" line; exits 1 on any mismatch, 77 when nothing is installed.
const fs = require('fs');
const os = require('os');
const path = require('path');
const R = require('./runjs.js');

const HERE = __dirname;
const args = process.argv.slice(2);
const only = [];
let doBugs = true;
let doSelect = true;
let keep = false;
let glDir = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--project') only.push(args[++i]);
  else if (args[i] === '--no-bugs') doBugs = false;
  else if (args[i] === '--no-select') doSelect = false;
  else if (args[i] === '--gl') glDir = path.resolve(args[++i]);
  else if (args[i] === '--keep') keep = true;
  else {
    console.error('usage: verify.js [--project NAME]... [--no-bugs] [--no-select] [--gl DIR] [--keep]');
    process.exit(2);
  }
}

const spec = JSON.parse(fs.readFileSync(path.join(HERE, 'projects.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-js-verify-'));
const gl = glDir || R.stageGl(path.join(tmp, 'gl'));
// Runner caches (jest's transform cache: ts-jest compiles once) live across runs, outside the projects.
const cache = path.join(os.tmpdir(), 'gl-js-verify-cache');
let passed = 0;
let failed = 0;
const problems = [];

function check(ok, what, detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    problems.push(what);
    console.log('FAIL ' + what + (detail ? '\n  ' + String(detail).split('\n').join('\n  ') : ''));
  }
  return ok;
}

function multiset(triples) {
  const m = new Map();
  for (const t of triples) {
    const k = t.id + ' => ' + t.status;
    m.set(k, (m.get(k) || 0) + 1);
  }
  return m;
}

function diffMultisets(a, b) {
  const lines = [];
  for (const [k, n] of a) if ((b.get(k) || 0) !== n) lines.push(`greenlight ${n}x, runner ${b.get(k) || 0}x: ${k}`);
  for (const [k, n] of b) if (!a.has(k)) lines.push(`greenlight 0x, runner ${n}x: ${k}`);
  return lines;
}

function groundTruth(p, dir, files) {
  const out = path.join(tmp, `${p.name}-${Date.now()}.json`);
  const cmd = R.jsonCommand(p.runner, dir, out, {files, cache});
  const r = R.run(cmd);
  if (!fs.existsSync(out)) throw new Error(`${p.runner} wrote no JSON report (exit ${r.code})\n${r.stderr.slice(-2000)}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  return {triples: R.fromJson(p.runner, dir, report), code: r.code};
}

// The events' protocol, beyond the statuses.
function checkProtocol(label, events, code, runner) {
  const results = events.filter((e) => e.ev === 'result');
  const collected = new Set();
  for (const e of events) if (e.ev === 'collected') for (const t of e.tests) collected.add(t.id);
  const started = new Map();
  const issues = [];
  for (const e of events) {
    if (e.ev === 'start') started.set(e.id, (started.get(e.id) || 0) + 1);
    if (e.ev !== 'result') continue;
    if (!e.id || !e.name || !e.file || !path.isAbsolute(e.file)) issues.push('result without id/name/absolute file: ' + JSON.stringify(e).slice(0, 200));
    if (!(e.line > 0)) issues.push('result without a line: ' + e.id);
    if (!e.id.endsWith('::(collection)') && !collected.has(e.id)) issues.push('result never collected: ' + e.id);
    if (e.status !== 'skipped' && !e.id.endsWith('::(collection)') && !e.outcome && !started.has(e.id)) issues.push('ran without a start: ' + e.id);
    if (['failed', 'error', 'timeout'].includes(e.status) && !e.message) issues.push('failure without a message: ' + e.id);
    if (e.message && /\n/.test(e.message)) issues.push('message of more than one line: ' + e.id);
    if (e.details && e.details.length > 4096) issues.push('details over 4 KB: ' + e.id);
  }
  const done = events.filter((e) => e.ev === 'done');
  if (done.length !== 1) issues.push(`${done.length} done events`);
  else if (runner === 'mocha' ? done[0].exit !== code : (done[0].exit === 0) !== (code === 0)) {
    issues.push(`done says exit ${done[0].exit}, the runner exited ${code}`);
  }
  return check(issues.length === 0, `${label}: events keep EVENTS.md`, issues.slice(0, 10).join('\n'));
}

function reporterRun(p, dir, files, titlePaths) {
  const cmd = R.reporterCommand(p.runner, dir, gl, files, {titlePaths, cache});
  const r = R.run(cmd);
  const {events} = R.parseEvents(r.stdout);
  return {events, code: r.code, stderr: r.stderr, cmd};
}

function compareFile(p, dir, file, truth, label) {
  const run = reporterRun(p, dir, [file]);
  let ours = R.fromEvents(run.events);
  let theirs = truth.filter((t) => t.file === file);
  if (p.runner === 'mocha') ours = R.mochaForm(ours);
  const d = diffMultisets(multiset(ours), multiset(theirs));
  check(d.length === 0 && ours.length > 0, `${label}: ${ours.length} (id, status) equal the runner's JSON report`,
    (d.join('\n') || 'no results') + (ours.length ? '' : '\n' + run.stderr.slice(-1500)));
  checkProtocol(label, run.events, run.code, p.runner);
  return run;
}

function selectOne(p, dir, file, run, label) {
  const pick = run.events.find((e) => e.ev === 'result' && (e.status === 'passed' || e.status === 'failed') &&
    !e.id.endsWith('::(collection)'));
  if (!pick) return;
  const titles = pick.id.slice(pick.id.indexOf('::') + 2).split(' > ');
  const sel = reporterRun(p, dir, [file], [titles]);
  const results = sel.events.filter((e) => e.ev === 'result');
  const collected = [];
  for (const e of sel.events) if (e.ev === 'collected') collected.push(...e.tests.map((t) => t.id));
  const same = run.events.filter((e) => e.ev === 'result' && e.id === pick.id).length;
  check(results.length === same && results.every((e) => e.id === pick.id && e.status === pick.status) &&
    collected.every((id) => id === pick.id),
  `${label}: selecting "${titles.join(' > ')}" runs that test alone`,
  'results: ' + results.map((e) => e.id + ' ' + e.status).join('; ') + '\ncollected: ' + collected.join('; '));
}

const edited = new Map();  // file -> original text
function restoreAll() {
  for (const [f, text] of edited) fs.writeFileSync(f, text);
  edited.clear();
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    restoreAll();
    process.exit(130);
  });
}

function applyBug(dir, bug) {
  const file = path.join(dir, bug.file);
  const text = fs.readFileSync(file, 'utf8');
  const n = text.split(bug.find).length - 1;
  if (n !== 1) throw new Error(`bug "${bug.name}": "${bug.find}" occurs ${n} times in ${bug.file}`);
  edited.set(file, text);
  fs.writeFileSync(file, text.replace(bug.find, bug.replace));
}

function runBug(p, dir, bug) {
  const label = `${p.name} bug "${bug.name}"`;
  applyBug(dir, bug);
  try {
    const files = [...new Set(bug.fail.map((id) => path.join(dir, id.slice(0, id.indexOf('::')))))];
    if (bug.noReport) {
      // The runner itself reports nothing (mocha stops at a spec file that does not load): the
      // events must still name the file, with an error.
      for (const file of files) {
        const run = reporterRun(p, dir, [file]);
        const errs = run.events.filter((e) => e.ev === 'result' && e.status === 'error').map((e) => e.id);
        check(run.code !== 0 && bug.fail.filter((id) => id.startsWith(R.rel(dir, file) + '::')).every((id) => errs.includes(id)) &&
          run.events.some((e) => e.ev === 'error' && e.file === file && e.line > 0),
        `${label}: ${R.rel(dir, file)} reported as an error`, JSON.stringify(run.events).slice(0, 800));
      }
      return;
    }
    const truth = groundTruth(p, dir, p.runner === 'mocha' ? null : files).triples;
    const want = new Set(bug.fail.map((id) => (p.runner === 'mocha' ? R.mochaForm([{id}])[0].id : id)));
    const theirFailing = new Set(truth.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => t.id));
    check([...want].every((id) => theirFailing.has(id)) && theirFailing.size === want.size,
      `${label}: the runner fails exactly the listed tests`, `runner fails: ${[...theirFailing].join('; ')}`);
    for (const file of files) {
      const run = compareFile(p, dir, file, truth, `${label} ${R.rel(dir, file)}`);
      for (const e of run.events) {
        if (e.ev !== 'result' || !bug.fail.includes(e.id)) continue;
        if (!check(['failed', 'error', 'timeout'].includes(e.status), `${label}: ${e.id} is not green`, e.status)) continue;
        if (e.id.endsWith('::(collection)')) continue;
        const shows = (e.expected !== undefined && e.actual !== undefined) || /Expected|expected/.test(e.message || '');
        if (e.status === 'failed') check(shows, `${label}: ${e.id} shows expected and actual`, JSON.stringify(e).slice(0, 600));
        const last = (e.frames || [])[e.frames.length - 1];
        check(last && fs.existsSync(last.file) && !/node_modules/.test(last.file) && last.line > 0,
          `${label}: ${e.id} has the user's frames`, JSON.stringify(e.frames));
      }
    }
  } finally {
    restoreAll();
  }
}

let projects = spec.projects;
if (only.length) projects = projects.filter((p) => only.includes(p.name));
let installed = 0;
for (const p of projects) {
  const dir = path.join(HERE, p.dir);
  if (!R.runnerBin(p.runner, dir)) {
    console.log(`SKIP ${p.name}: ${p.runner} not installed (tests/projects/js/install.sh)`);
    continue;
  }
  installed++;
  const t0 = Date.now();
  let truth;
  try {
    truth = groundTruth(p, dir, null).triples;
  } catch (e) {
    check(false, `${p.name}: ground truth`, e.message);
    continue;
  }
  const files = [...new Set(truth.map((t) => t.file))].sort();
  check(files.length === p.testFiles.length && files.every((f) => p.testFiles.includes(R.rel(dir, f))),
    `${p.name}: the runner's test files are the ones projects.json lists`, files.map((f) => R.rel(dir, f)).join(' '));
  // The probe asks the runner for its test files: the same files (mocha also lists spec files
  // that define no test, like a setup file its spec glob matches).
  const probe = R.run({argv: [process.execPath, path.join(gl, 'js_probe.js'), '--list'], cwd: dir, env: R.baseEnv(os.tmpdir())});
  const config = R.parseEvents(probe.stdout).events.find((e) => e.ev === 'config') || {};
  const listed = (config.files || []).map((f) => R.rel(dir, f));
  const ok = config.runner === p.runner && !config.error && files.every((f) => listed.includes(R.rel(dir, f))) &&
    (p.runner === 'mocha' || listed.length === files.length);
  check(ok, `${p.name}: js_probe.js names ${p.runner} and lists its test files`,
    JSON.stringify({runner: config.runner, error: config.error, listed}));
  for (const file of files) {
    const label = `${p.name} ${R.rel(dir, file)}`;
    const run = compareFile(p, dir, file, truth, label);
    if (doSelect) selectOne(p, dir, file, run, label);
  }
  if (doBugs) {
    for (const bug of spec.bugs.filter((b) => b.project === p.name)) {
      try {
        runBug(p, dir, bug);
      } catch (e) {
        restoreAll();
        check(false, `${p.name} bug "${bug.name}"`, e.stack);
      }
    }
  }
  console.log(`${p.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
if (!keep) fs.rmSync(tmp, {recursive: true, force: true});
if (!installed) {
  console.log('nothing installed: run tests/projects/js/install.sh');
  process.exit(77);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
