//\
/*
R"GLJS(
*/
// greenlight's warm start for node: the process a warm spare starts before its run comes
// (sandbox Policy::WarmStart), with the run's flags (--test-reporter...) and environment.
// Embedded like node_harness.js; written beside it in /work/.gl.
//
// Before the run: node has bootstrapped, and the modules every run loads are compiled and
// cached (the harness's assert rewriter with acorn, the ES module loader, node:test and the
// reporter), and the rewriter has run on a sample so that V8 has compiled it. Then it blocks
// reading fd 1023
// (sandbox kWarmRunFd, the last one RLIMIT_NOFILE allows: node's own descriptors get the
// numbers they get in a cold start).
// At the run: fd 1023 carries "<argc>\0<envc>\0", argv, envp and the workdir (each
// NUL-terminated), then EOF. The environment becomes exactly envp, the working directory the
// workdir, process.argv what `node [flags] script args` gives, and the script runs as the main
// module, as node runs it cold. The process serves one run and exits with it.
'use strict';
async function greenlightWarmLoad() {
  const path = require('path');
  const {pathToFileURL} = require('url');
  const dir = __dirname;
  // Line coverage (issue 35) counts from here, before anything loads (js_coverage.js: prestart).
  if (process.env.GL_COVERAGE === '1') {
    try {
      require(path.join(dir, 'js_coverage.js')).prestart();
    } catch (e) {
      // the run starts it, later and slower
    }
  }
  let acorn = null, rewriter = null;
  try {
    rewriter = require(path.join(dir, 'node_rewrite.js'));
    acorn = require(path.join(dir, 'acorn.js'));
  } catch (e) {
    // Loaded again (and failing the same way) by the run that needs it.
  }
  // node:test only for a process started for it (the reporter flags say so): loading it opens
  // process.stdout, whose pipe handle makes libuv reserve a descriptor (/dev/null). A cold
  // harness run does that too, when the test file loads node:test; a program that opens a
  // file before loading node:test sees that descriptor's number one higher than cold.
  const forNodeTest = process.execArgv.some((flag) => flag.startsWith('--test-reporter='));
  if (forNodeTest) require('node:test');
  // The ES module loader and the reporter node:test imports when the first test starts.
  for (const flag of process.execArgv) {
    if (!flag.startsWith('--test-reporter=')) continue;
    const reporter = flag.slice('--test-reporter='.length);
    if (reporter.startsWith('/')) await import(pathToFileURL(reporter).href).catch(() => {});
  }
  // The assert rewriter on a sample test, a few times over: V8 compiles the parser's hot
  // functions now rather than in the run (a parse is several times faster after this).
  if (acorn && rewriter) {
    const sample = "const assert = require('assert');\nconst {f} = require('./f.js');\n" +
      "test('t', () => {\n  assert.strictEqual(f(1, [2, 3]), {a: 1}.a);\n  assert.deepEqual(f('x'), `y${1}`);\n" +
      "  assert.ok(f(x => x + 1) >= 0 && !f(null), 'message');\n});\n";
    for (let i = 0; i < 30; i++) {
      try {
        const result = rewriter.rewrite(acorn, sample, {module: false, firstId: 0});
        if (result) acorn.parse(result.code, {ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true});
      } catch (e) {
        break;
      }
    }
  }
}

function greenlightWarmRun() {
  const fs = require('fs');
  const path = require('path');
  const Module = require('module');
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
  process.argv = [process.argv[0], script, ...argv.slice(i + 1)];
  // The boot module must not look like the program's main module.
  delete require.cache[__filename];
  Module.runMain(script);
}

// Loaded: what loading ran leaves coverage's count (js_coverage.js: settle).
function settleCoverage() {
  if (process.env.GL_COVERAGE !== '1') return;
  try {
    require(require('path').join(__dirname, 'js_coverage.js')).settle();
  } catch (e) {
    // the run's take reports more
  }
}

greenlightWarmLoad().catch(() => {}).then(settleCoverage).then(greenlightWarmRun);
/*
)GLJS" // */
