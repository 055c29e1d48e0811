//\
/*
R"GLJS(
*/
// greenlight's JavaScript test harness (CommonJS). Runs inside the sandbox with node.
//
// Embedded into the greenlight binary at build time: harness/Harnesses.cpp #includes this file
// inside a C++ raw string. The first and last three lines are arranged so that C++ sees the
// raw string delimiters while JavaScript sees only comments (a C++ line splice hides line 2
// from C++; JavaScript block comments hide the delimiters from node).
//
// Protocol: JSON events on fd 1, one per line, prefixed with "\n\x1eGL " (see the Python
// harness). Plain files (top-level asserts, console.assert) are one test each; node:test tests
// are reported one by one by node_reporter.mjs, loaded with --test-reporter.
//
// Values of failed asserts: each test file's assert calls are rewritten before node compiles it
// (node_rewrite.js, with the vendored acorn beside this file): CommonJS files through
// Module.prototype._compile, ES modules through a module.register() load hook that serves the
// rewritten text. The rewritten code records operands in __greenlightAssert; a failure's stack
// names the assert call, whose record gives `f(x) returned A, expected B`. Positions in stacks
// are mapped back to the original text. A file that does not parse runs unrewritten.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const Module = require('module');
const {pathToFileURL, fileURLToPath} = require('url');

function emit(obj) {
  fs.writeSync(1, '\n\x1eGL ' + JSON.stringify(obj) + '\n');
}

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const HARNESS_DIR = __dirname + '/';

// ---- rewritten test files ----
const rewriter = require('./node_rewrite.js');
let acorn = null;  // loaded on first use (~10 ms)
const rewritten = new Map();  // file -> rewrite result
const sites = [];             // assert id -> {file, site, stack: [], last}
const byLine = new Map();     // "file:line" -> [site records]

// The rewritten text of a test file, or null to run it as written: nothing to rewrite, a text
// that does not parse, or anything going wrong in here (the rewriting must never break a run).
function rewriteFile(file, source, isModule) {
  const known = rewritten.get(file);
  if (known) return known.original === source ? known.code : null;
  // Only files that can hold an assert pay for the parser.
  if (!/assert|Equal|match/i.test(source)) return null;
  let result;
  try {
    if (!acorn) acorn = require('./acorn.js');
    result = rewriter.rewrite(acorn, source, {module: isModule, firstId: sites.length});
    if (!result) return null;
    // The rewritten text must parse too.
    acorn.parse(result.code, {ecmaVersion: 'latest', sourceType: isModule ? 'module' : 'script',
      allowReturnOutsideFunction: !isModule, allowHashBang: true, allowAwaitOutsideFunction: isModule});
  } catch (e) {
    return null;
  }
  result.original = source;
  rewritten.set(file, result);
  for (const site of result.sites) {
    const record = {file, site, stack: [], last: null};
    sites[site.id] = record;
    const key = file + ':' + site.line;
    if (!byLine.has(key)) byLine.set(key, []);
    byLine.get(key).push(record);
  }
  return result.code;
}

// The records the rewritten code writes (see node_rewrite.js). An evaluation of assert `id`
// opens a frame, its operands and inner calls fill it, and e() files it as the assert's last.
const runtime = {
  b(id) {
    const rec = sites[id];
    const frame = {id, calls: new Map(), hasLeft: false, hasRight: false, ambiguous: false};
    if (rec) {
      // Another evaluation still open across an await: whose operand is whose is unknown.
      if (rec.site.suspends && rec.stack.length) {
        for (const f of rec.stack) f.ambiguous = true;
        frame.ambiguous = true;
      }
      rec.stack.push(frame);
      if (rec.stack.length > 256) rec.stack.shift();
    }
    return frame;
  },
  top(id) {
    const rec = sites[id];
    return rec && rec.stack.length ? rec.stack[rec.stack.length - 1] : null;
  },
  l(id, value, fn) {
    const f = runtime.top(id);
    if (f) Object.assign(f, {left: value, hasLeft: true, fn});
    return value;
  },
  r(id, value) {
    const f = runtime.top(id);
    if (f) Object.assign(f, {right: value, hasRight: true});
    return value;
  },
  v(id, k, value) {
    const f = runtime.top(id);
    if (f && !f.calls.has(k)) f.calls.set(k, value);
    return value;
  },
  e(frame, value, fn) {
    const rec = sites[frame.id];
    if (rec) {
      const i = rec.stack.lastIndexOf(frame);
      if (i >= 0) rec.stack.splice(i, 1);
      frame.value = value;
      frame.ok = !!value;
      if (fn !== undefined) frame.fn = fn;
      rec.last = frame;
    }
    return value;
  },
};
Object.defineProperty(globalThis, rewriter.HELPER, {value: runtime, enumerable: false});

// CommonJS test files: rewrite the text node is about to compile.
const cjsTests = new Set();
const compile = Module.prototype._compile;
Module.prototype._compile = function greenlightCompile(content, filename) {
  // (TypeScript that ts_hook.mjs had to transform carries a source map the rewrite would shift.)
  if (cjsTests.has(filename) && typeof content === 'string' && !(isTs(filename) && content.includes('//# sourceMappingURL='))) {
    const code = rewriteFile(filename, content, false);
    if (code !== null) return compile.call(this, code, filename);
  }
  return compile.call(this, content, filename);
};

// ES module test files: rewritten here, served by a load hook (module.register, node >= 20.6).
const ESM_HOOKS = `
let sources = {};
export async function initialize(data) { sources = data.sources; }
export async function load(url, context, nextLoad) {
  const r = await nextLoad(url, context);
  if (r.format === 'module' && Object.prototype.hasOwnProperty.call(sources, url)) {
    return {format: 'module', source: sources[url], shortCircuit: true};
  }
  return r;
}`;

// TypeScript (run with `--import ts_hook.mjs`, which strips the types and decides the format).
function isTs(file) {
  return /\.(ts|tsx|mts|cts)$/.test(file);
}

// Is `file` an ES module by node's rules (.mjs, or .js under "type": "module")?
function isEsm(file) {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs') || !file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).type === 'module';
    } catch (e) {
      if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') return false;
    }
    if (dir === path.dirname(dir)) return false;
  }
}

function prepareRewrites(files) {
  const sources = {};
  for (const file of files) {
    if (!isEsm(file)) {
      cjsTests.add(file);
      continue;
    }
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      continue;
    }
    const code = rewriteFile(file, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, true);
    if (code !== null) sources[pathToFileURL(file).href] = code;
  }
  if (!Object.keys(sources).length) return;
  try {
    if (typeof Module.register !== 'function') throw new Error('no module.register (node < 20.6)');
    Module.register('data:text/javascript,' + encodeURIComponent(ESM_HOOKS), {data: {sources}});
  } catch (e) {
    // Served as written: forget the rewrites so stack positions are not mapped.
    for (const url of Object.keys(sources)) rewritten.delete(fileURLToPath(url));
  }
}

// ---- reading errors ----
function parseFrames(stack) {
  const frames = [];
  for (const line of String(stack || '').split('\n')) {
    const m = /^\s*at (?:(.*?) \()?(file:\/\/)?(\/[^()]*?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    let file = m[3];
    if (m[2]) {
      try {
        file = fileURLToPath('file://' + file);  // ES modules: a URL, percent-encoded
      } catch (e) {
        // keep the text as it is
      }
    }
    if (file.startsWith(HARNESS_DIR) || file.startsWith('node:')) continue;
    const frame = {file, line: Number(m[4]), column: Number(m[5]), function: m[1] || ''};
    const r = rewritten.get(frame.file);
    if (r) {
      const mapped = rewriter.mapPosition(r, frame.line, frame.column);
      frame.line = mapped.line;
      frame.column = mapped.column;
    }
    frames.push(frame);
  }
  return frames.reverse();  // outermost first, like Python's traceback
}

function show(v) {
  let s;
  try {
    s = util.inspect(v, {depth: 4, breakLength: Infinity, maxArrayLength: 100, maxStringLength: 1000});
  } catch (e) {
    s = '<inspect failed: ' + (e && e.name) + '>';
  }
  if (s.length > 300) s = s.slice(0, 300) + '...';
  return s;
}

// The rewritten assert a frame stands on: its call's callee up to the opening parenthesis.
function siteAt(frame) {
  const candidates = byLine.get(frame.file + ':' + frame.line);
  if (!candidates) return null;
  const r = rewritten.get(frame.file);
  const offset = rewriter.offsetOf(r, frame.line, frame.column);
  for (const rec of candidates) {
    if (offset >= rec.site.start && offset <= rec.site.paren) return rec;
  }
  return null;
}

// The failed evaluation of a rewritten assert that `frames` passed through (innermost first),
// and the index of its frame.
function failedSite(frames) {
  for (let i = frames.length - 1; i >= 0; i--) {
    const rec = siteAt(frames[i]);
    if (rec) return rec.last && !rec.last.ok && !rec.last.ambiguous ? Object.assign({}, rec, {frameIndex: i}) : null;
  }
  return null;
}

const EQUALITY = new Set(['===', '==']);

// Python's wording (python_harness.py's _gl_fail), JavaScript's operators:
//   `f(x) returned A, expected B`, `f(x) returned A, expected < B`, `f(x) returned A`,
//   `console.assert(a === b): A === B is false`; plus the values of the calls inside.
function siteMessage(rec) {
  const site = rec.site, frame = rec.last;
  const out = {};
  let shownCall = null;  // the call shown with "returned"
  const named = (src, fn, callee) => {
    // The function's own name when the source calls it by another (candidate(1) -> fib(1)).
    const name = typeof fn === 'function' ? fn.name : '';
    if (callee && name && name !== callee && /^[A-Za-z_$][\w$]*$/.test(name) && src.startsWith(callee + '(')) {
      return name + src.slice(callee.length);
    }
    return src;
  };
  if (site.form === 'compare' && frame.hasLeft && frame.hasRight) {
    const a = show(frame.left), b = show(frame.right);
    out.actual = a;
    out.expected = EQUALITY.has(site.op) ? b : site.op + ' ' + b;
    if (site.leftIsCall) {
      shownCall = site.left;
      out.message = `${named(site.left, frame.fn, site.leftCallee)} returned ${a}, expected ${out.expected}`;
    } else {
      out.message = `${site.callee}(${site.left} ${site.op} ${site.right}): ${a} ${site.op} ${b} is false`;
    }
  } else if (site.argumentIsCall) {
    shownCall = site.argument;
    out.actual = show(frame.value);
    out.message = `${named(site.argument, frame.fn, site.argumentCallee)} returned ${out.actual}`;
  } else {
    out.message = site.kind === 'console' ? `${site.callee}(${site.argument}) failed` : null;
  }
  // Like power-assert: what the calls inside returned (those that ran), beyond the one shown,
  // then the names passed to them; three at most.
  const inner = [];
  const names = new Set(site.names || []);
  for (const pass of [false, true]) {
    site.calls.forEach((src, k) => {
      if (names.has(k) !== pass || !frame.calls.has(k) || src === shownCall || src === site.right) return;
      if (inner.length >= 3 || inner.some((x) => x.startsWith(src + ' '))) return;
      inner.push(`${src} ${pass ? 'is' : 'returned'} ${show(frame.calls.get(k))}`);
    });
  }
  out.inner = inner;
  return out;
}

// The source text of the first argument of the assert call on `frame`'s line, if any.
function firstArgument(frame) {
  let text;
  try {
    const lines = fs.readFileSync(frame.file, 'utf8').split('\n');
    text = lines.slice(frame.line - 1, frame.line + 8).join('\n');
  } catch (e) {
    return null;
  }
  const col = Math.max(0, (frame.column || 1) - 1);
  const rest = text.slice(col);
  const open = rest.indexOf('(');
  if (open < 0) return null;
  let depth = 0, quote = null;
  for (let i = open; i < rest.length; i++) {
    const c = rest[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return rest.slice(open + 1, i).replace(/\s+/g, ' ').trim();
    } else if (c === ',' && depth === 1) {
      return rest.slice(open + 1, i).replace(/\s+/g, ' ').trim();
    }
  }
  return null;
}

// node:assert's negated comparisons: the expected value is what the actual must NOT be.
const NOT_OPERATORS = {notStrictEqual: '!==', notEqual: '!=', notDeepStrictEqual: 'not deep-equal to',
  notDeepEqual: 'not deep-equal to', doesNotMatch: 'not matching'};

function describe(err) {
  const res = {frames: []};
  if (err === null || typeof err !== 'object') {
    res.status = 'error';
    res.kind = 'exception';
    res.message = 'uncaught throw of ' + show(err);
    return res;
  }
  res.frames = parseFrames(err.stack);
  // A SyntaxError from loading a file names the place on the stack's first line, "file:line".
  if (err instanceof SyntaxError) {
    const m = /^(\/[^\n]*?):(\d+)\s*$/m.exec(String(err.stack || ''));
    if (m && !m[1].startsWith(HARNESS_DIR)) res.frames.push({file: m[1], line: Number(m[2]), column: 0, function: ''});
  }
  const isAssert = err.code === 'ERR_ASSERTION' || err.name === 'AssertionError' ||
      err.glConsoleAssert;
  if (err.glTimeout) {
    res.status = 'timeout';
    res.kind = 'timeout';
    res.message = 'timed out (time limit reached)';
    return res;
  }
  // A user's own assert() that throws a plain Error when its condition was false: an assertion.
  const ownAssert = !isAssert && !(err instanceof SyntaxError) && failedSite(res.frames);
  if (!isAssert && !(ownAssert && ownAssert.site.kind === 'assert')) {
    res.status = 'error';
    res.kind = 'exception';
    res.message = (err.name || 'Error') + ': ' + err.message;
    return res;
  }
  res.status = 'failed';
  res.kind = 'assertion';
  const top = res.frames[res.frames.length - 1];
  const rec = failedSite(res.frames);
  const withInner = (message, inner) => (inner && inner.length ? message + '; ' + inner.join('; ') : message);
  if (rec && rec.site.kind !== 'method') {
    // The assert call is where it failed: frames inside a user's own assert() are dropped.
    res.frames = res.frames.slice(0, rec.frameIndex + 1);
    const d = siteMessage(rec);
    if (d.actual !== undefined) res.actual = d.actual;
    if (d.expected !== undefined) res.expected = d.expected;
    const prefix = err.glConsoleAssert ? '' : 'AssertionError: ';
    let message;
    if (rec.site.hasMessage || !d.message) {
      // The user's own message stays; the values follow it.
      message = err.glConsoleAssert
        ? `${rec.site.callee}(${rec.site.argument}) failed` + (err.glDetail ? ': ' + err.glDetail : '')
        : 'AssertionError: ' + String(err.message).split('\n').filter((l) => l.trim()).join(' ');
      if (d.actual !== undefined) {
        message += d.expected !== undefined ? ` (actual ${d.actual}, expected ${d.expected})` : ` (got ${d.actual})`;
      }
    } else {
      message = prefix + d.message;
    }
    res.message = withInner(message, d.inner);
    return res;
  }
  if (err.glConsoleAssert) {
    const arg = top ? firstArgument(top) : null;
    res.message = arg ? 'console.assert(' + arg + ') failed' : 'console.assert failed';
    if (err.glDetail) res.message += ': ' + err.glDetail;
    return res;
  }
  const hasOperands = 'actual' in err && 'expected' in err &&
      !(err.operator === '==' && err.expected === true && err.generatedMessage === false);
  if (hasOperands && err.operator !== 'fail') {
    res.actual = show(err.actual);
    const word = NOT_OPERATORS[err.operator];
    res.expected = word ? word + ' ' + show(err.expected) : show(err.expected);
    // The first argument's text: from the parsed file when it was rewritten, else read back.
    const methodSite = rec && rec.site.kind === 'method' ? rec : null;
    const anySite = methodSite || (top && siteAt(top));
    const arg = anySite ? anySite.site.argument : (top ? firstArgument(top) : null);
    const isCall = anySite ? anySite.site.argumentIsCall : !!(arg && /\w\s*\(/.test(arg));
    let message;
    if (arg && isCall && err.generatedMessage !== false) {
      const frame = anySite && anySite.last;
      const fn = frame && frame.fn;
      const name = typeof fn === 'function' ? fn.name : '';
      const callee = anySite && anySite.site.argumentCallee;
      const shown = callee && name && name !== callee && /^[A-Za-z_$][\w$]*$/.test(name) ? name + arg.slice(callee.length) : arg;
      message = `AssertionError: ${shown} returned ${res.actual}, expected ${res.expected}`;
    } else {
      const first = String(err.message).split('\n').filter((l) => l.trim())[0];
      message = `AssertionError: ${first} (actual ${res.actual}, expected ${res.expected})`;
    }
    res.message = withInner(message, anySite && anySite.last ? siteMessage(anySite).inner : []);
  } else {
    res.message = 'AssertionError: ' + String(err.message).split('\n').filter((l) => l.trim()).join(' ');
  }
  return res;
}
globalThis.__greenlightDescribe = describe;

// console.assert only prints in node; real code relies on it, so a failure must fail the test.
console.assert = function greenlightConsoleAssert(cond, ...rest) {
  if (cond) return;
  const err = new Error('console.assert failed');
  err.glConsoleAssert = true;
  if (rest.length) err.glDetail = rest.map((x) => (typeof x === 'string' ? x : show(x))).join(' ');
  Error.captureStackTrace(err, greenlightConsoleAssert);
  throw err;
};

// A hanging test is not interrupted here: node cannot preempt a synchronous loop from inside
// (an inspector pause is not serviced while the main thread spins). The sandbox's wall-clock
// limit ends the run and the runner blames the test whose "start" has no "result".

// node:test reports through an async reporter: a test that spins synchronously never gets its
// `start` out, so the hang watchdog (Watchdog.h) would see nothing running. Root hooks run
// synchronously around every test, nested ones too, and say what runs: `begin`/`end`, which
// nothing but the watchdog reads. They never throw, so they cannot change an outcome.
function watchNodeTests() {
  let nt;
  try {
    nt = require('node:test');
  } catch (e) {
    return;
  }
  if (typeof nt.beforeEach !== 'function' || typeof nt.afterEach !== 'function') return;
  const stack = [];
  nt.beforeEach((t) => {
    try {
      const name = typeof t.fullName === 'string' ? t.fullName
        : (stack.length ? stack[stack.length - 1] + ' > ' : '') + String(t.name);
      stack.push(name);
      emit({ev: 'begin', name, file: typeof t.filePath === 'string' ? t.filePath : ''});
    } catch (e) {
      // only a signal for the watchdog
    }
  });
  nt.afterEach(() => {
    try {
      if (stack.length) emit({ev: 'end', name: stack.pop()});
    } catch (e) {
      // only a signal for the watchdog
    }
  });
}

async function main() {
  // Line coverage of the file under test (issue 35): counting starts before any test file loads.
  let cov = null;
  if (Array.isArray(cfg.cover) && cfg.cover.length) {
    try {
      cov = require('./js_coverage.js');
      cov.start(cfg.cover);
    } catch (e) {
      cov = null;
    }
  }
  const usesNodeTest = (f) => {
    try {
      return /['"](node:)?test['"]/.test(fs.readFileSync(f, 'utf8'));
    } catch (e) {
      return false;
    }
  };
  if (cfg.tests.some(usesNodeTest)) watchNodeTests();
  process.on('unhandledRejection', (reason) => {
    emit(Object.assign({ev: 'result', name: '(unhandled rejection)', file: cfg.source || '',
      line: 1}, describe(reason)));
  });
  try {
    prepareRewrites(cfg.tests);
  } catch (e) {
    // The rewriting is a nicety: whatever fails in it, the tests run as written.
  }
  for (const file of cfg.tests) {
    const text = fs.readFileSync(file, 'utf8');
    const usesNodeTest = /['"](node:)?test['"]/.test(text);
    const name = path.basename(file);
    emit({ev: 'start', name, file, line: 1});
    const t0 = process.hrtime.bigint();
    let res = {status: 'passed', message: ''};
    try {
      // TypeScript through import(): ts_hook.mjs loads it as an ES module or as CommonJS.
      if (isEsm(file) || isTs(file)) await import(pathToFileURL(file).href);
      else require(file);
    } catch (err) {
      res = describe(err);
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (usesNodeTest && res.status === 'passed') {
      emit({ev: 'loaded', name, file});
    } else {
      emit(Object.assign({ev: 'result', name, file, line: 1, duration_ms: ms}, res));
    }
  }
  process.on('exit', () => {
    // node:test's tests have all run by now.
    if (cov) cov.report(emit);
    emit({ev: 'done'});
  });
}

main().catch((err) => {
  emit(Object.assign({ev: 'result', name: '(harness)', file: '', line: 1}, describe(err)));
});
/*
)GLJS" // */
