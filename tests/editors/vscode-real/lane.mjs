// The real-VS-Code lane: the packaged extension in code-server, driven in Debian's chromium by
// playwright-core, against the real `greenlight lsp` and the scripted model server.
//
//   node lane.mjs --cache DIR --out DIR --server BIN --examples DIR --scripted-model PY
//                 [--only 1,3] [--readme-image FILE] [--fake-server BIN]
//
// setup.sh has filled --cache (code-server, playwright-core, greenlight.vsix). Scenarios 1-5, 7-9 run
// in one code-server whose settings point greenlight at the scripted model; scenario 6 in a
// second one, a fresh profile with no provider configured (changing settings.json under a
// running VS Code would race its file watcher); `fake` scenarios in a third one whose server is
// --fake-server (tests/editors/fake: scripted coverage and tests-first proposals). Screenshots go to --out/screenshots; with
// --readme-image, scenario 3's round-2 screenshot is also copied there (the README's image).
// Every process started here (the model server, each code-server with its extension hosts and
// language servers, chromium) is stopped at the end, on failure, on SIGINT/SIGTERM and when the
// lane's own deadline passes.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CodeServer } from './codeServer.mjs';
import { kScenarios, prepareWorkspace } from './scenarios.mjs';
import { Workbench } from './workbench.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const { values: opts } = parseArgs({
  options: {
    cache: { type: 'string' },
    out: { type: 'string' },
    server: { type: 'string' },
    examples: { type: 'string' },
    'scripted-model': { type: 'string' },
    only: { type: 'string' },
    'readme-image': { type: 'string' },
    'fake-server': { type: 'string' },
  },
});
for (const key of ['cache', 'out', 'server', 'examples', 'scripted-model']) {
  if (!opts[key]) {
    console.error(`lane.mjs: --${key} is required`);
    process.exit(2);
  }
}
const kWaitMs = 90_000; // one wait for the UI (a test run, a generation); a backstop, not a timing
const kDeadlineMs = 900_000; // the whole lane, below CTest's TIMEOUT so the clean-up still runs
const only = opts.only ? new Set(opts.only.split(',').map(Number)) : undefined;
const scenarios = kScenarios.filter((s) => !only || only.has(s.id));

const require = createRequire(path.join(opts.cache, 'tools', 'node_modules', '/'));
const { chromium } = require('playwright-core');

const cleanups = [];
async function cleanUp() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (e) {
      console.error(`clean-up: ${e.message}`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(1)));
}
const deadline = setTimeout(() => {
  console.error(`FAIL: the lane did not finish within ${kDeadlineMs / 1000} s`);
  void cleanUp().finally(() => process.exit(1));
}, kDeadlineMs);

function step(text) {
  console.log(`[lane ${new Date().toISOString().slice(11, 19)}] ${text}`);
}

// The scripted model on a free loopback port, in a process group of its own.
async function startModel(dir) {
  const portFile = path.join(dir, 'model.port');
  const log = path.join(dir, 'model.log');
  const child = spawn('python3', [opts['scripted-model'], '--script', path.join(here, 'model-script.json'), '--port', '0', '--port-file', portFile, '--log', log], {
    detached: true,
    stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'model.stderr'), 'w')],
  });
  cleanups.push(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  });
  const until = Date.now() + 30_000;
  while (!fs.existsSync(portFile) || !fs.readFileSync(portFile, 'utf8').trim()) {
    if (child.exitCode !== null) throw new Error(`the scripted model exited (${child.exitCode}); see ${dir}/model.stderr`);
    if (Date.now() > until) throw new Error('the scripted model did not listen within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').trim()}/v1`, log };
}

// The environment of code-server and so of the extension host and `greenlight lsp`: no
// provider keys or endpoints from the caller's environment (scenario 6 needs none configured).
function cleanEnv(root) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(OPENAI_|ANTHROPIC_|GREENLIGHT_|OLLAMA_|VSCODE_|ELECTRON_)/.test(k)) continue;
    env[k] = v;
  }
  env.XDG_CACHE_HOME = path.join(root, 'cache');
  return env;
}

function settings(model, root, server) {
  return {
    'greenlight.server.path': server,
    // For the post-mortem of a failed scenario.
    'greenlight.server.extraArgs': ['--log-file', path.join(root, 'greenlight.log'), '--log-level', 'debug'],
    ...(model ? { 'greenlight.baseUrl': model.url, 'greenlight.model': 'scripted' } : {}),
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'remote.autoForwardPorts': false,
    'security.workspace.trust.enabled': false,
    'chat.commandCenter.enabled': false,
    'git.enabled': false,
    'files.autoSave': 'off',
    'editor.minimap.enabled': false,
    // Typing is scripted: nothing may add characters of its own.
    'editor.autoClosingBrackets': 'never',
    'editor.autoClosingQuotes': 'never',
    'editor.autoSurround': 'never',
    'editor.autoIndent': 'none',
    'editor.quickSuggestions': { other: false, comments: false, strings: false },
    'editor.suggestOnTriggerCharacters': false,
    // The Testing view scenarios open a result's peek themselves.
    'testing.automaticallyOpenPeekView': 'never',
  };
}

// The last lines of the greenlight extension's output channel ("greenlight" in the Output panel)
// in a session's user-data logs.
function extensionLogTail(root, count = 15) {
  const logs = path.join(root, 'user-data', 'logs');
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/-greenlight\.log$/.test(entry.name)) found.push(p);
    }
  };
  try {
    walk(logs);
  } catch {
    return ['(no logs)'];
  }
  const lines = found.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean));
  return lines.length ? lines.slice(-count) : ['(empty)'];
}

// One code-server session with a browser page on it; runs `list` and records the outcomes.
async function session(name, list, model, ctx, results, serverBin = opts.server) {
  const root = path.join(opts.out, name);
  fs.rmSync(root, { recursive: true, force: true });
  const server = new CodeServer({ bin: path.join(opts.cache, 'code-server', 'node_modules', '.bin', 'code-server'), root, env: cleanEnv(root) });
  step(`${name}: installing the extension`);
  server.installExtension(path.join(opts.cache, 'greenlight.vsix'));
  server.writeSettings(settings(model, root, serverBin));
  cleanups.push(() => server.stop());
  const url = await server.start(ctx.workspace, kWaitMs);
  step(`${name}: code-server at ${url}`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await Workbench.install(page);
  await page.goto(`${url}/?folder=${encodeURIComponent(ctx.workspace)}`);
  const wb = new Workbench(page, { timeoutMs: kWaitMs, shots: ctx.shots });
  await wb.ready();
  for (const s of list) {
    const started = Date.now();
    step(`scenario ${s.id}: ${s.name}`);
    try {
      const detail = await s.fn({ ...ctx, wb });
      results.push({ ...s, ok: true, detail, seconds: (Date.now() - started) / 1000 });
      console.log(`ok ${s.id} - ${s.name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n    ${detail}`);
    } catch (e) {
      const shot = await wb.shot(`${s.id}-FAILED`).catch(() => '(no screenshot)');
      // What the notifications and the status bar said during the scenario, for the post-mortem.
      const seenFile = path.join(ctx.shots, `${s.id}-FAILED-seen.json`);
      await page.evaluate(() => window.__glSeen).then((seen) => fs.writeFileSync(seenFile, JSON.stringify(seen, null, 1))).catch(() => {});
      results.push({ ...s, ok: false, detail: e.message, seconds: (Date.now() - started) / 1000 });
      console.log(`not ok ${s.id} - ${s.name}\n    ${e.stack ?? e.message}\n    screenshot: ${shot}\n    code-server log: ${server.log}\n    server log: ${path.join(root, 'greenlight.log')}\n    texts seen: ${path.join(ctx.shots, `${s.id}-FAILED-seen.json`)}`);
      // CI removes its clone, and these files with it: the extension's own log goes in the output.
      console.log(`    the extension's log, last lines:\n${extensionLogTail(root).map((l) => `      | ${l}`).join('\n')}`);
      // The next scenario starts from a known state: every editor reverted and closed.
      await wb.reset().catch((e) => console.log(`    reset: ${e.message}`));
    }
  }
  await browser.close();
  server.stop();
}

async function main() {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'greenlight-vscode-real-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const workspace = path.join(tmp, 'examples');
  fs.cpSync(opts.examples, workspace, { recursive: true });
  prepareWorkspace(workspace);
  const shots = path.join(opts.out, 'screenshots');
  fs.rmSync(shots, { recursive: true, force: true });
  fs.mkdirSync(shots, { recursive: true });
  const readme = opts['readme-image'] ?? path.join(shots, 'generate-readme.png');
  const results = [];

  // `fresh` scenarios get a code-server window of their own (one where no file was opened).
  const withModel = scenarios.filter((s) => s.provider && !s.fresh && !s.fake);
  const without = scenarios.filter((s) => !s.provider && !s.fresh && !s.fake);
  const faked = scenarios.filter((s) => s.fake);
  if (faked.length && !opts['fake-server']) throw new Error(`scenarios ${faked.map((s) => s.id).join(', ')} need --fake-server`);
  for (const s of scenarios.filter((s) => s.fresh)) await session(`fresh-${s.id}`, [s], undefined, { workspace, shots, readme }, results);
  if (withModel.length) {
    const model = await startModel(tmp);
    step(`scripted model at ${model.url}`);
    await session('with-model', withModel, model, { workspace, shots, readme, modelLog: model.log }, results);
  }
  if (without.length) await session('no-provider', without, undefined, { workspace, shots, readme }, results);
  if (faked.length) await session('fake-server', faked, undefined, { workspace, shots, readme }, results, opts['fake-server']);

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`\nscreenshots: ${shots}`);
  console.log(`lane time (scenarios, setup excluded): ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && results.length === scenarios.length ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`FAIL: ${e.stack ?? e.message}`);
} finally {
  clearTimeout(deadline);
  await cleanUp();
}
process.exit(code);
