#!/usr/bin/env node
'use strict';
// Warm runners: one test file of a project, run by the runner's own CLI cold (greenlight's
// reporter command of runjs.js) and by a warm spare (js_warm.js started ahead, handed the same
// command on fd 1023 as the sandbox's Policy::WarmStart does). Prints both times and checks that
// warm results equal cold.
//
//   node tests/projects/js/bench_warm.js [--runs N] [PROJECT FILE]...
//   (default: jest-js __tests__/cart.test.js, jest-ts test/set.spec.ts,
//             vitest-ts test/template.spec.ts, mocha-js test/parse.js)
// The spare's preload is not timed: a run starts when the command reaches fd 1023 and ends when
// the process exits. Times are medians, wall clock, on this machine as loaded as it is.
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawn} = require('child_process');
const R = require('./runjs.js');

const args = process.argv.slice(2);
let runs = 5;
const picks = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else picks.push([args[i], args[++i]]);
}
if (!picks.length) {
  picks.push(['jest-js', '__tests__/cart.test.js'], ['jest-ts', 'test/set.spec.ts'],
    ['vitest-ts', 'test/template.spec.ts'], ['mocha-js', 'test/parse.js']);
}
const spec = JSON.parse(fs.readFileSync(path.join(__dirname, 'projects.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-js-bench-'));
const gl = R.stageGl(path.join(tmp, 'gl'));
const cache = path.join(os.tmpdir(), 'gl-js-verify-cache');

function cpuTicks(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch (e) {
    return -1;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function collect(child) {
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', () => {});
    child.on('exit', (code) => resolve({code, out}));
  });
}

async function cold(cmd) {
  const t0 = process.hrtime.bigint();
  const child = spawn(cmd.argv[0], cmd.argv.slice(1), {cwd: cmd.cwd, env: cmd.env, stdio: ['ignore', 'pipe', 'pipe']});
  const r = await collect(child);
  return {ms: Number(process.hrtime.bigint() - t0) / 1e6, ...r};
}

async function warm(cmd, runner) {
  const stdio = Array.from({length: 1024}, (_, i) => (i === 1 || i === 2 || i === 1023 ? 'pipe' : 'ignore'));
  const env = {...cmd.env, GL_WARM_RUNNER: runner, GL_WARM_ROOT: cmd.cwd};
  const child = spawn(process.execPath, [path.join(gl, 'js_warm.js')], {cwd: cmd.cwd, env, stdio});
  const done = collect(child);
  // Ready when the spare has stopped using the CPU (it blocks on fd 1023).
  let last = -2;
  for (let i = 0; i < 200; i++) {
    await sleep(150);
    const t = cpuTicks(child.pid);
    if (t === last) break;
    last = t;
  }
  const msg = [String(cmd.argv.length), String(Object.keys(cmd.env).length), ...cmd.argv,
    ...Object.entries(cmd.env).map(([k, v]) => `${k}=${v}`), cmd.cwd].join('\0') + '\0';
  const t0 = process.hrtime.bigint();
  child.stdio[1023].end(msg);
  const r = await done;
  return {ms: Number(process.hrtime.bigint() - t0) / 1e6, ...r};
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function outcome(out) {
  return R.fromEvents(R.parseEvents(out).events).map((t) => t.id + ' ' + t.status).sort().join('\n');
}

(async () => {
  let failures = 0;
  const rows = [];
  for (const [name, file] of picks) {
    const p = spec.projects.find((x) => x.name === name);
    const dir = path.join(__dirname, p.dir);
    if (!R.runnerBin(p.runner, dir)) {
      console.log(`SKIP ${name}: not installed`);
      continue;
    }
    const cmd = R.reporterCommand(p.runner, dir, gl, [path.join(dir, file)], {cache});
    await cold(cmd);  // fills the runner's caches (jest's transform cache) for both
    const c = [];
    const w = [];
    let equal = true;
    for (let i = 0; i < runs; i++) {
      const a = await cold(cmd);
      const b = await warm(cmd, p.runner);
      c.push(a.ms);
      w.push(b.ms);
      if (outcome(a.out) !== outcome(b.out) || a.code !== b.code || !outcome(a.out)) equal = false;
    }
    if (!equal) failures++;
    const row = `${name} ${file} (${p.runner} ${R.packageVersion(dir, p.runner === 'jest' ? 'jest' : p.runner)}): ` +
      `cold ${median(c).toFixed(0)} ms, warm ${median(w).toFixed(0)} ms, warm/cold ${(median(w) / median(c)).toFixed(2)}, ` +
      `warm results ${equal ? 'equal' : 'DIFFER FROM'} cold`;
    rows.push(row);
    console.log(row);
  }
  fs.rmSync(tmp, {recursive: true, force: true});
  process.exit(failures ? 1 : 0);
})();
