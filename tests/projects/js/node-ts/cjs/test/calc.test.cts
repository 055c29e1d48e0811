const { test } = require('node:test');
const assert = require('node:assert');
const { rpn, apply } = require('../src/calc.cjs');

test('evaluates reverse Polish notation', () => {
  assert.strictEqual(rpn('3 4 + 2 *'), 14);
});

test('divides', () => {
  assert.strictEqual(apply('/', 9, 3), 3);
});

test('rejects division by zero', () => {
  assert.throws(() => rpn('1 0 /'), /division by zero/);
});
