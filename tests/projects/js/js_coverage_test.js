#!/usr/bin/env node
// harness/js_coverage.js on its own (issue 35), node only: which lines count as code, and one
// module measured three ways: required as it is, compiled the way jest compiles a module (its
// module wrapper around the code, through vm.Script), and the same with an inline source map
// (identity, one segment a line) after the code. An unrun
// branch is 0, a function never called is 0, lines that hold no code are absent, and
// GREENLIGHT_COVER decides what is measured.
//
//   node tests/projects/js/js_coverage_test.js
'use strict';
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vm = require('vm');

const R = require('./runjs.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-jscov-'));
process.on('exit', () => fs.rmSync(dir, {recursive: true, force: true}));
// The file as greenlight stages it (without its C++ wrapper lines).
const covPath = path.join(dir, 'js_coverage.js');
fs.writeFileSync(covPath, R.unwrap(fs.readFileSync(path.join(R.HARNESS, 'js_coverage.js'), 'utf8')));

const source = [
  "'use strict';",                        // 1 code
  '// a comment',                         // 2
  '',                                     // 3
  'function sign(n) {',                   // 4 code: the function's own range, so its calls
  '  if (n < 0) {',                       // 5 code
  "    return 'negative';",               // 6 code, never run
  '  }',                                  // 7 brace only
  '  /* two lines',                       // 8
  '     of comment */',                   // 9
  "  const s = 'a // not a comment';",    // 10 code
  '  return n === 0 ? s : `positive',     // 11 code
  '}`;',                                  // 12 inside a template literal: code
  '}',                                    // 13 brace only
  '',                                     // 14
  'function never(x) {',                  // 15 code
  '  return x + 1;',                      // 16 code, never run
  '}',                                    // 17
  '',                                     // 18
  'module.exports = {sign, never};',      // 19 code
  '',
].join('\n');
const expected = [[1, 1], [4, 2], [5, 2], [6, 0], [10, 2], [11, 2], [12, 2], [15, 0], [16, 0], [19, 1]];

const files = ['plain.js', 'wrapped.js', 'mapped.js'].map((n) => path.join(dir, n));
for (const f of files) fs.writeFileSync(f, source);
process.env.GREENLIGHT_COVER = files.join(':');
const cov = require(covPath);
assert.strictEqual(cov.start(), true, 'start() with targets');

// 1: as node's own loader compiles it
const plain = require(files[0]);
plain.sign(3);
plain.sign(0);

// 2 and 3: as jest compiles a module (its wrapper, vm.Script, the file name as the script's)
function jestLike(file, code) {
  const wrapped = '({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){' + code + '\n}});';
  const script = new vm.Script(wrapped, {filename: file});
  const module = {exports: {}};
  script.runInThisContext()['Object.<anonymous>'](module, module.exports, require, dir, file, {});
  return module.exports;
}
const wrapped = jestLike(files[1], source);
wrapped.sign(5);
wrapped.sign(0);
const lines = source.split('\n').length;
const identity = {version: 3, sources: [path.basename(files[2])], sourcesContent: [source], names: [],
  mappings: 'AAAA' + ';AACA'.repeat(lines - 1)};
const mapped = jestLike(files[2], source + '\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,' +
  Buffer.from(JSON.stringify(identity)).toString('base64'));
mapped.sign(7);
mapped.sign(0);

// The identity map has one segment per line, at column 0: a range that starts or ends inside a
// line maps to that line's start, as v8-to-istanbul maps it. What v8-to-istanbul 9.3.0 (c8 10.1.3)
// makes of this very script, with jest's wrapper length, on its code lines (checked by hand):
const expectedMapped = [[1, 1], [4, 2], [5, 0], [6, 0], [10, 2], [11, 1], [12, 1], [15, 0], [16, 0], [19, 1]];
const got = new Map(cov.take().map((x) => [x.file, x.lines]));
assert.deepStrictEqual(got.get(files[0]), expected, 'plain.js: lines and counts');
assert.deepStrictEqual(got.get(files[1]), expected, 'wrapped.js: lines and counts');
assert.deepStrictEqual(got.get(files[2]), expectedMapped, 'mapped.js: lines and counts');
console.log('ok   plain and wrapped modules: ' + JSON.stringify(expected));
console.log('ok   through an inline source map, as v8-to-istanbul maps it: ' + JSON.stringify(expectedMapped));

// Counters restart after take(); a file outside GREENLIGHT_COVER is never reported.
const other = path.join(dir, 'other.js');
fs.writeFileSync(other, source);
require(other).sign(1);
plain.never(1);
wrapped.never(2);
const again = cov.take();
assert.deepStrictEqual(again.map((x) => x.file).sort(), [files[0], files[1]], 'only the targets that ran since');
for (const x of again) {
  assert.deepStrictEqual(x.lines.find((l) => l[0] === 16), [16, 1], x.file + ': the second take counts from the first');
  assert.deepStrictEqual(x.lines.find((l) => l[0] === 5), [5, 0], x.file + ': sign() did not run since');
  assert.deepStrictEqual(x.lines.find((l) => l[0] === 1), [1, 0], x.file + ': the module did not load again');
}
console.log('ok   take() resets the counts and reports only the targets');

// The events: one per file, summed over several takes (vitest's workers).
const merged = cov.merge(cov.merge(new Map(), [{file: files[0], lines: [[1, 1], [6, 0]]}]),
  [{file: files[0], lines: [[1, 2], [6, 1]]}]);
assert.deepStrictEqual(cov.events(merged), [{ev: 'coverage', file: files[0], lines: [[1, 3], [6, 1]]}]);
console.log('ok   events sum what several processes measured');
