#!/usr/bin/env node
'use strict';
// greenlight itself (`greenlight run FILE --json`, `greenlight generate`) on the JavaScript and
// TypeScript projects, against each project's own runner, test id by test id: the JavaScript
// side of tests/projects/python/check_greenlight.py.
//
//   check_greenlight.js --greenlight BIN --dir DIR [--project NAME]... [--skip-bugs] [--skip-generate]
//
// DIR holds installed copies of the projects (install.sh --into DIR): bugs are injected there,
// never into the sources.
// 1. files:    the runner's own JSON report over the whole project is the truth; for every test
//              file it names, `greenlight run FILE --json` must give each id that file's status
//              (as a multiset), and exit 1 when one failed, else 0; no run writes anything
//              into the installed project (node_modules included).
// 2. bugs:     each injected bug of projects.json (a one-line edit), applied to the copy, then
//              `greenlight run <the edited file> --json` (a source finds its tests through their
//              imports; a test file runs itself): every id the bug lists fails (never green),
//              the statuses equal the runner's JSON report on the same files, and each failed
//              assertion's diagnostic shows the expected and the received value; a bug's `at`
//              (file, line) must carry a diagnostic there (a .ts line: source maps).
// 3. generate: projects.json's "generate" entries: a TypeScript function made a stub, then
//              `greenlight generate FILE:LINE --json --apply` with tests/fakes/scripted_model.py
//              answering the function untyped and unexported: it must pass, and the file must
//              read as before (typed signature and `export` kept).
// Ends with "N passed, M failed"; exit 0 when all agree, 1 on a disagreement, 77 when no
// project is installed in DIR (npm unreachable: install.sh skipped).
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawn, spawnSync} = require('child_process');
const R = require('./runjs.js');

const HERE = __dirname;
const FAKE_MODEL = path.resolve(HERE, '../../fakes/scripted_model.py');
const args = process.argv.slice(2);
const only = [];
let bin = null;
let base = null;
let doBugs = true;
let doGenerate = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--greenlight') bin = path.resolve(args[++i]);
  else if (args[i] === '--dir') base = path.resolve(args[++i]);
  else if (args[i] === '--project') only.push(args[++i]);
  else if (args[i] === '--skip-bugs') doBugs = false;
  else if (args[i] === '--skip-generate') doGenerate = false;
  else {
    console.error('usage: check_greenlight.js --greenlight BIN --dir DIR [--project NAME]... [--skip-bugs] [--skip-generate]');
    process.exit(2);
  }
}
if (!bin || !base) {
  console.error('check_greenlight.js: --greenlight and --dir are required');
  process.exit(2);
}

const spec = JSON.parse(fs.readFileSync(path.join(HERE, 'projects.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-js-check-'));
const cache = path.join(tmp, 'cache');
let passed = 0;
let failed = 0;

function check(ok, what, detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log('DISAGREE ' + what + (detail ? '\n  ' + String(detail).split('\n').join('\n  ') : ''));
  }
  return ok;
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

function edit(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  const n = text.split(from).length - 1;
  if (n !== 1) throw new Error(`"${from.slice(0, 60)}" occurs ${n} times in ${file}`);
  if (!edited.has(file)) edited.set(file, text);
  fs.writeFileSync(file, text.replace(from, to));
}

// The environment greenlight runs with: no model, no user config.
function glEnv(extra = {}) {
  return {PATH: process.env.PATH, HOME: path.join(tmp, 'home'), LANG: 'C.UTF-8', XDG_CACHE_HOME: path.join(tmp, 'xdg'),
    ...extra};
}

// Every entry under `root` (node_modules too: a runner's cache lands there by default), with what
// would show a write: type, size, mtime. Symlinks are not followed (pnpm's links are entries).
function snapshot(root) {
  const out = new Map();
  const walk = (d) => {
    let names = [];
    try {
      names = fs.readdirSync(d);
    } catch (e) {
      return;
    }
    for (const n of names) {
      const f = path.join(d, n);
      const st = fs.lstatSync(f, {throwIfNoEntry: false});
      if (!st) continue;
      out.set(f, `${st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f'} ${st.isDirectory() ? '' : st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(f);
    }
  };
  walk(root);
  return out;
}

function snapshotDiff(before, after) {
  const lines = [];
  for (const [f, v] of after) if (before.get(f) !== v) lines.push(`${before.has(f) ? 'changed' : 'created'}: ${f}`);
  for (const f of before.keys()) if (!after.has(f)) lines.push(`removed: ${f}`);
  return lines;
}

// `root`: the whole installed project (a workspace's monorepo), whose tree a run must leave as it
// was (nothing written into the project, node_modules included: the runners' caches go to the
// sandbox's scratch space).
function greenlightRun(dir, rel, root = dir) {
  const before = snapshot(root);
  const r = spawnSync(bin, ['run', rel, '--json'], {cwd: dir, env: glEnv(), encoding: 'utf8', timeout: 600000,
    maxBuffer: 64 * 1024 * 1024});
  const written = snapshotDiff(before, snapshot(root));
  check(written.length === 0, `greenlight run ${rel}: nothing written into ${root}`, written.slice(0, 20).join('\n'));
  let json = null;
  try {
    json = JSON.parse(r.stdout);
  } catch (e) {
    // reported below
  }
  return {json, code: r.status, stderr: r.stderr || ''};
}

// greenlight's tests as (file, id, status) triples in the form the runners' reports have.
function triplesOf(p, json) {
  let out = (json.tests || []).filter((t) => t.id).map((t) => ({
    file: t.file,
    id: t.id,
    status: t.id.endsWith('::(collection)') ? 'error' : R.normalizeStatus(t.status),
  }));
  if (p.runner === 'mocha') out = R.mochaForm(out);
  return out;
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
  const out = path.join(tmp, `${p.name}-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  const cmd = R.jsonCommand(p.runner, dir, out, {files, cache});
  const r = R.run(cmd);
  if (!fs.existsSync(out)) throw new Error(`${p.runner} wrote no JSON report (exit ${r.code})\n${r.stderr.slice(-2000)}`);
  return R.fromJson(p.runner, dir, JSON.parse(fs.readFileSync(out, 'utf8')));
}

function checkFiles(p, dir) {
  const truth = groundTruth(p, dir, null);
  const files = [...new Set(truth.map((t) => t.file))].sort();
  check(files.length === p.testFiles.length && files.every((f) => p.testFiles.includes(R.rel(dir, f))),
    `${p.name}: the runner's test files are the ones projects.json lists`, files.map((f) => R.rel(dir, f)).join(' '));
  let ids = 0;
  for (const file of files) {
    const rel = R.rel(dir, file);
    const t0 = Date.now();
    const run = greenlightRun(dir, rel, path.join(base, p.install || p.dir));
    if (!check(run.json && !run.json.error, `${p.name} ${rel}: greenlight ran it`,
      `exit ${run.code}: ${run.stderr.slice(-1500)}`)) continue;
    const ours = triplesOf(p, run.json);
    const theirs = truth.filter((t) => t.file === file);
    const d = diffMultisets(multiset(ours), multiset(theirs));
    check(d.length === 0 && ours.length > 0, `${p.name} ${rel}: ${ours.length} (id, status) equal the runner's JSON report`,
      d.join('\n') || 'no results');
    const failing = theirs.some((t) => t.status !== 'passed' && t.status !== 'skipped');
    const ran = theirs.some((t) => t.status !== 'skipped');
    const want = failing ? 1 : ran ? 0 : 3;
    check(run.code === want, `${p.name} ${rel}: exit ${want}`, `exit ${run.code}`);
    check(run.json.language === (/\.[cm]?tsx?$/.test(rel) ? 'typescript' : 'javascript'),
      `${p.name} ${rel}: the language of the file`, run.json.language);
    ids += ours.length;
    console.log(`  ${p.name} ${rel}: ${ours.length} ids, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return {files: files.length, ids, truth: truth.length};
}

// The failures' diagnostics show both values: "Expected ... Received ..." in the message, or the
// runner's own words ("expected X to equal Y") with greenlight's expected/actual beside them.
function showsValues(json, test) {
  const diags = (json.diagnostics || []).filter((d) => d.data && d.data.test === test.name &&
    (d.file === test.file || (test.frames || []).some((f) => f.file === d.file)));
  return diags.some((d) => /Expected/i.test(d.message) && /Received|actual|to (be|equal|deep|strict)/i.test(d.message) &&
    ((d.data.expected !== undefined && d.data.actual !== undefined) || /Expected: .*Received: /.test(d.message)));
}

function checkBug(p, dir, bug) {
  const label = `${p.name} bug "${bug.name}"`;
  const file = path.join(dir, bug.file);
  edit(file, bug.find, bug.replace);
  try {
    const run = greenlightRun(dir, bug.file, path.join(base, p.install || p.dir));
    if (!check(run.json && !run.json.error, `${label}: greenlight ran ${bug.file}`,
      `exit ${run.code}: ${run.stderr.slice(-1500)}`)) return;
    const ours = triplesOf(p, run.json);
    const want = bug.fail.map((id) => (p.runner === 'mocha' ? R.mochaForm([{id}])[0].id : id));
    const failing = new Set(ours.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => t.id));
    check(failing.size > 0 && run.code === 1, `${label}: not green`, `exit ${run.code}, ${ours.length} results`);
    check(want.every((id) => failing.has(id)), `${label}: greenlight fails the listed tests`,
      `listed: ${want.join('; ')}\ngreenlight fails: ${[...failing].join('; ')}`);
    if (!bug.noReport) {
      const files = [...new Set(run.json.tests.filter((t) => t.id).map((t) => t.file))];
      const truth = groundTruth(p, dir, p.runner === 'mocha' ? null : files).filter((t) => files.includes(t.file));
      const d = diffMultisets(multiset(ours), multiset(truth));
      check(d.length === 0, `${label}: ${ours.length} (id, status) equal the runner's JSON report`, d.join('\n'));
    }
    for (const t of run.json.tests) {
      if (!bug.fail.includes(t.id) || t.status !== 'failed') continue;
      check(showsValues(run.json, t), `${label}: ${t.id}: the diagnostic shows Expected and Received`,
        JSON.stringify(run.json.diagnostics.filter((d) => d.data && d.data.test === t.name).map((d) => d.message)));
    }
    for (const t of run.json.tests) {
      if (!bug.fail.includes(t.id) || t.status !== 'error') continue;
      check((run.json.diagnostics || []).some((d) => d.data && d.data.test === t.name && d.line > 0),
        `${label}: ${t.id}: a diagnostic where it went wrong`, JSON.stringify(run.json.diagnostics).slice(0, 800));
    }
    // `at`: where the failure must show, on the file's own lines (a .ts file: through the source
    // maps of the runner's transform).
    for (const at of bug.at || []) {
      const where = path.join(dir, at.file);
      check((run.json.diagnostics || []).some((d) => d.file === where && d.line === at.line),
        `${label}: a diagnostic at ${at.file}:${at.line}`,
        JSON.stringify((run.json.diagnostics || []).map((d) => `${R.rel(dir, d.file)}:${d.line}`)));
    }
    console.log(`  ${label}: ${failing.size} failing`);
  } finally {
    restoreAll();
  }
}

function startModel(reply) {
  const script = path.join(tmp, `script-${Date.now()}.json`);
  const portFile = script + '.port';
  fs.writeFileSync(script, JSON.stringify({rules: [], default: {text: reply}}));
  const child = spawn('python3', [FAKE_MODEL, '--script', script, '--port', '0', '--port-file', portFile],
    {stdio: 'ignore'});
  for (let i = 0; i < 200; i++) {
    if (fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()) {
      return {child, port: Number(fs.readFileSync(portFile, 'utf8').trim())};
    }
    spawnSync('sleep', ['0.05']);
  }
  child.kill();
  throw new Error('the scripted model did not start');
}

// The function `name` in `text`: its first line (1-based), its text and its body.
function findFunction(text, name) {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => new RegExp(`^export function ${name}\\b`).test(l));
  if (first < 0) throw new Error(`no exported function ${name}`);
  const last = lines.findIndex((l, i) => i > first && /^}/.test(l));
  return {line: first + 1, header: lines[first], body: lines.slice(first + 1, last).join('\n'),
    text: lines.slice(first, last + 1).join('\n')};
}

function checkGenerate(p, dir, g) {
  const label = `${p.name} generate ${g.function}`;
  const file = path.join(dir, g.file);
  const original = fs.readFileSync(file, 'utf8');
  const fn = findFunction(original, g.function);
  // The model's answer: the same function as plain JavaScript (no types, no export).
  const untyped = `function ${g.function}(${g.params}) {\n${fn.body}\n}`;
  const reply = 'Here is the implementation:\n\n```ts\n' + untyped + '\n```\n';
  edit(file, fn.text, `${fn.header}\n  throw new Error('not implemented');\n}`);
  const model = startModel(reply);
  try {
    const r = spawnSync(bin, ['generate', `${g.file}:${fn.line}`, '--json', '--apply'], {cwd: dir, encoding: 'utf8',
      timeout: 600000, env: glEnv({GREENLIGHT_PROVIDER: 'openai', OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
        OPENAI_API_KEY: 'sk-test', GREENLIGHT_MODEL: 'scripted'})});
    let json = {};
    try {
      json = JSON.parse(r.stdout);
    } catch (e) {
      // below
    }
    const after = fs.readFileSync(file, 'utf8');
    const s = json.summary || {};
    if (check(r.status === 0 && json.status === 'passed', `${label}: passes`,
      `exit ${r.status}, status ${json.status}: ${json.error || ''}\n${JSON.stringify(json.rounds || []).slice(0, 1500)}\n${(r.stderr || '').slice(-1500)}`)) {
      check(after === original, `${label}: the file after --apply is the original (typed signature, export)`,
        after.split('\n').slice(fn.line - 2, fn.line + 3).join('\n'));
      check((s.passed || 0) >= (g.minTests || 1), `${label}: its tests ran`, JSON.stringify(s));
      console.log(`  ${label}: passed ${s.passed} tests`);
    }
  } finally {
    model.child.kill('SIGTERM');
    restoreAll();
  }
}

let projects = spec.projects;
if (only.length) projects = projects.filter((p) => only.includes(p.name));
let installed = 0;
for (const p of projects) {
  const dir = path.join(base, p.dir);
  if (!R.runnerBin(p.runner, dir)) {
    console.log(`SKIP ${p.name}: ${p.runner} is not installed in ${dir} (install.sh --into ${base})`);
    continue;
  }
  installed++;
  const t0 = Date.now();
  try {
    const n = checkFiles(p, dir);
    console.log(`${p.name} (${p.runner}): ${n.files} test files, ${n.ids} ids agree-checked of the runner's ${n.truth}`);
    if (doBugs) {
      for (const bug of spec.bugs.filter((b) => b.project === p.name)) checkBug(p, dir, bug);
    }
    if (doGenerate) {
      for (const g of (spec.generate || []).filter((x) => x.project === p.name)) checkGenerate(p, dir, g);
    }
  } catch (e) {
    restoreAll();
    check(false, `${p.name}`, e.stack);
  }
  console.log(`${p.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
fs.rmSync(tmp, {recursive: true, force: true});
if (!installed) {
  console.log('skipped: no project is installed (npm unreachable?)');
  process.exit(77);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
