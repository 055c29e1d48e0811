// Unit tests of the JavaScript assert rewriter (server/core/testing/harness/node_rewrite.js) with
// the vendored acorn. Run by ctest (runners.js_rewriter): node --test tests/runners/js/.
//
// The checks run the ORIGINAL and the REWRITTEN program side by side in fresh V8 contexts and
// compare what can be observed: results, side effects, which calls ran, and the stack positions
// of errors (mapped back through mapPosition), so "exact" means what V8 reports, not what the
// rewriter believes.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const vm = require('vm');

const root = path.resolve(__dirname, '../../..');
const acorn = require(path.join(root, 'third_party/acorn/acorn.js'));
const rewriter = require(path.join(root, 'server/core/testing/harness/node_rewrite.js'));

const FILE = '/virtual/case.test.js';

// Values from another V8 context have other prototypes: compare their JSON.
const plain = (x) => JSON.parse(JSON.stringify(x));

// A runtime like the harness's: records per assert evaluation.
function makeRuntime() {
  const evaluations = [];
  const stacks = new Map();
  const top = (id) => (stacks.get(id) || []).slice(-1)[0];
  const rt = {
    evaluations,
    b(id) {
      const f = {id, calls: new Map()};
      if (!stacks.has(id)) stacks.set(id, []);
      stacks.get(id).push(f);
      return f;
    },
    l(id, v, fn) { Object.assign(top(id), {left: v, fn}); return v; },
    r(id, v) { top(id).right = v; return v; },
    v(id, k, value) { const f = top(id); if (!f.calls.has(k)) f.calls.set(k, value); return value; },
    e(frame, value, fn) {
      const s = stacks.get(frame.id);
      s.splice(s.lastIndexOf(frame), 1);
      frame.value = value;
      if (fn !== undefined) frame.fn = fn;
      evaluations.push(frame);
      return value;
    },
  };
  return rt;
}

// Runs `code` as a script in a new context; returns the log, the error (if any) and its frames
// in this file.
function run(code, extra) {
  const log = [];
  const rt = makeRuntime();
  const context = vm.createContext(Object.assign({
    log: (x) => log.push(x),
    console: {assert: (c) => log.push('assert:' + !!c)},
    assert: Object.assign((c) => log.push('assert:' + !!c), {ok: (c) => log.push('ok:' + !!c),
      strictEqual: (a, b) => log.push('strictEqual:' + (a === b))}),
    [rewriter.HELPER]: rt,
  }, extra || {}));
  let error = null;
  try {
    new vm.Script(code, {filename: FILE}).runInContext(context);
  } catch (e) {
    error = e;
  }
  const frames = [];
  if (error && error.stack) {
    for (const line of String(error.stack).split('\n')) {
      const m = /\/virtual\/case\.test\.js:(\d+):(\d+)/.exec(line);
      if (m) frames.push({line: Number(m[1]), column: Number(m[2])});
    }
  }
  return {log, error: error && String(error.message), frames, rt};
}

// Rewrites `source`, runs both, and checks that they behave alike and that every stack
// position of the rewritten run maps back to the original run's.
function same(source, options) {
  const result = rewriter.rewrite(acorn, source, Object.assign({firstId: 0}, options));
  assert.ok(result, 'the source was rewritten');
  assert.equal(result.code.split('\n').length, source.split('\n').length, 'line count kept');
  const before = run(source);
  const after = run(result.code);
  assert.deepEqual(after.log, before.log, 'same observable behaviour');
  assert.equal(after.error, before.error, 'same error');
  const mapped = after.frames.map((f) => {
    const m = rewriter.mapPosition(result, f.line, f.column);
    return {line: m.line, column: m.column};
  });
  assert.deepEqual(mapped, before.frames, 'stack positions map back exactly');
  if (source.lastIndexOf('boom()') > source.indexOf('throw new Error("boom")')) assert.ok(before.frames.length > 1, 'the error was thrown from the case');
  return {result, after};
}

const PRELUDE = 'let calls = 0; function f(x) { calls++; log("f" + x); return x + 1; }\n' +
  'function g(x) { log("g" + x); return [x, x]; }\n' +
  'function boom() { throw new Error("boom"); }\n';

test('a comparison records both operands once, in order', () => {
  const {result, after} = same(PRELUDE + 'console.assert(f(1) === 3); log(calls);');
  const site = result.sites[0];
  assert.equal(site.form, 'compare');
  assert.equal(site.op, '===');
  assert.equal(site.left, 'f(1)');
  assert.equal(site.right, '3');
  assert.equal(site.leftIsCall, true);
  assert.equal(site.line, 4);
  const ev = after.rt.evaluations[0];
  assert.equal(ev.left, 2);
  assert.equal(ev.right, 3);
  assert.equal(ev.value, false);
  assert.equal(typeof ev.fn, 'function', 'the callee, for its own name');
});

test('every comparison operator, assert, assert.ok', () => {
  for (const op of ['===', '==', '!==', '!=', '<', '<=', '>', '>=']) {
    const {result, after} = same(PRELUDE + `console.assert(f(1) ${op} 2); assert(f(2) ${op} '3'); assert.ok(4 ${op} f(3));`);
    assert.deepEqual(result.sites.map((s) => [s.kind, s.form, s.op]),
      [['console', 'compare', op], ['assert', 'compare', op], ['assert', 'compare', op]]);
    assert.equal(after.rt.evaluations.length, 3);
  }
});

test('nested calls: the inner ones are recorded too, each once', () => {
  const {result, after} = same(PRELUDE + 'console.assert(JSON.stringify(g(f(f(1)))) === "[4,4]");');
  const site = result.sites[0];
  assert.deepEqual(site.calls, ['g(f(f(1)))', 'f(f(1))', 'f(1)']);
  const ev = after.rt.evaluations[0];
  assert.deepEqual(plain([...ev.calls.entries()]), [[2, 2], [1, 3], [0, [3, 3]]]);
  assert.equal(ev.left, '[3,3]');
});

test('template literals, comments and multi-line asserts keep positions', () => {
  same(PRELUDE + 'console.assert(\n  `a${f(1)}b${`${g(2)}`}` /* c === d */ ===\n    // x === y\n    "a2b2,2"\n); boom();');
  same(PRELUDE + 'console.assert(/* (( */ f(1) === 2 /* )) */, "msg"); log(`${f(5)}`); boom();');
  same(PRELUDE + 'console.assert(\n  f(\n    1\n  ) ===\n  boom()\n);');
});

test('an error inside an operand is placed exactly', () => {
  same(PRELUDE + 'console.assert(f(1) + boom() === 2);');
  same(PRELUDE + 'console.assert(f(1) === 2); console.assert(g(1)[0] === boom());');
  same(PRELUDE + 'const o = {m() { return boom(); }}; console.assert(o.m() === 1);');
});

test('columns after astral and other non-ASCII characters', () => {
  same(PRELUDE + 'const s = "𝒳𝒴é"; console.assert(f("😀") === s); console.assert(f(s) === "𝒳"); boom();');
  same(PRELUDE + 'console.assert(/* 𝒳 */ f(1) === 2) ; /* ü */ console.assert(g("𝒴").length === 2); boom();');
});

test('CRLF line ends and a hashbang line', () => {
  same('#!/usr/bin/env node\r\n' + PRELUDE.replace(/\n/g, '\r\n') + 'console.assert(f(1) === 2);\r\nboom();\r\n');
});

test('short-circuits stay: a call behind && or ?: only runs when the program runs it', () => {
  const {after} = same(PRELUDE + 'const no = false; console.assert(no && f(1) === 2); console.assert(no ? f(2) : g(3)); log(calls);');
  assert.equal(after.rt.evaluations[0].calls.size, 0);
  assert.deepEqual(plain([...after.rt.evaluations[1].calls.values()]), [[3, 3]]);
});

test('calls inside functions, classes and optional chains are not touched', () => {
  const {result} = same(PRELUDE + 'const o = {m: f}; const n = null;\n' +
    'console.assert([1, 2].map((x) => f(x)).length === 2);\n' +
    'console.assert(o?.m(1) === 2); console.assert(n?.m(f(9)) === undefined);\n' +
    'console.assert(new (class { constructor() { this.v = f(7); } })().v === 8);');
  assert.deepEqual(result.sites[0].calls, ['[1, 2].map((x) => f(x))']);  // not f(x): inside the arrow
  assert.deepEqual(result.sites[1].calls, []);  // the operand itself is the chain
  assert.deepEqual(result.sites[2].calls, []);  // left is the chain
});

test('a sequence as an operand stays one operand', () => {
  const {after} = same(PRELUDE + 'console.assert((f(1), f(2)) === 3);');
  assert.equal(after.rt.evaluations[0].left, 3);
});

test('the value form: a bare call, a negation', () => {
  const {result, after} = same(PRELUDE + 'console.assert(f(-1)); console.assert(!g(1));');
  assert.equal(result.sites[0].form, 'value');
  assert.equal(result.sites[0].argumentIsCall, true);
  assert.equal(after.rt.evaluations[0].value, 0);
  assert.equal(result.sites[1].argumentIsCall, false);
  assert.deepEqual(result.sites[1].calls, ['g(1)']);
});

test('node:assert methods: the first argument and the calls inside it are recorded', () => {
  const {result, after} = same(PRELUDE + 'assert.strictEqual(JSON.stringify(g(1)), "[1,1]");');
  assert.equal(result.sites[0].kind, 'method');
  assert.equal(result.sites[0].argument, 'JSON.stringify(g(1))');
  assert.deepEqual(plain([...after.rt.evaluations[0].calls.values()]), [[1, 1]]);
});

test('asserts that can suspend (await, yield) are marked', () => {
  const result = rewriter.rewrite(acorn, 'async function t() { console.assert(await f(1) === 2); ' +
    'console.assert(f(2) === 3); console.assert([1].map(async (x) => await x).length === 1); }', {});
  assert.deepEqual(result.sites.map((s) => s.suspends), [true, false, false]);
});

test('ES modules: top-level await, import, export', () => {
  const source = 'import x from "y";\nexport const z = 1;\nconsole.assert(await f(1) === 2);\n';
  const result = rewriter.rewrite(acorn, source, {module: true, firstId: 5});
  assert.ok(result);
  assert.equal(result.sites[0].id, 5);
  assert.equal(result.sites[0].leftIsCall, true);
  assert.doesNotThrow(() => acorn.parse(result.code, {ecmaVersion: 'latest', sourceType: 'module'}));
  assert.equal(rewriter.rewrite(acorn, source, {module: false}), null, 'not a script: left alone');
});

test('the rewritten text parses for every shape (inside methods, generators, async)', () => {
  const source = PRELUDE + 'class A extends Object { m() { console.assert(super.toString() === this.toString()); } }\n' +
    'function* gen() { console.assert((yield f(1)) === 2); }\n' +
    'async function af() { assert(await f(1) === (await g(2))[0]); }\n' +
    'label: { console.assert(f(1) === 2); }\n';
  const result = rewriter.rewrite(acorn, source, {});
  assert.equal(result.sites.length, 4);
  assert.doesNotThrow(() => acorn.parse(result.code, {ecmaVersion: 'latest'}));
  same(source + 'new A().m(); gen().next(); boom();');
});

test('nothing to rewrite, or a file that does not parse: null', () => {
  assert.equal(rewriter.rewrite(acorn, 'const x = 1;\n', {}), null);
  assert.equal(rewriter.rewrite(acorn, 'console.assert(f(1) === ;\n', {}), null);
  assert.equal(rewriter.rewrite(acorn, 'console.assert(...args);\n', {}), null);
});

test('positions inside inserted text map to the assert call', () => {
  const source = 'console.assert(f(1) === 2);';
  const result = rewriter.rewrite(acorn, source, {});
  // Column 16 of the rewritten line is inside the helper call opened before f(1).
  const m = rewriter.mapPosition(result, 1, 16);
  assert.deepEqual([m.line, m.column, m.site], [1, 9, 0]);
  // The callee keeps its column.
  assert.deepEqual(rewriter.mapPosition(result, 1, 9), {line: 1, column: 9});
  assert.equal(rewriter.offsetOf(result, 1, 9), 8);
});

test('names passed to calls are recorded where the program reads them', () => {
  const {result, after} = same(PRELUDE + 'const xs = [1, 2]; let solution = 5;\n' +
    'console.assert(Math.abs(g(solution)[0] - f(xs.length)) > 9);\n' +
    'const o = {solution}; console.assert(typeof missing === "undefined" && f(undefined) !== 0);');
  const site = result.sites[0];
  // The left operand (the Math.abs call) is recorded as the operand itself.
  assert.deepEqual(site.calls, ['g(solution)', 'solution', 'f(xs.length)']);
  assert.deepEqual(site.names, [1]);
  const ev = after.rt.evaluations[0];
  assert.equal(ev.calls.get(1), 5);
  assert.deepEqual(result.sites[1].names, [], 'undefined is not worth showing');
  // A name read before its declaration throws where it did.
  same(PRELUDE + 'console.assert(f(later) === 1);\nlet later = 1;');
});
