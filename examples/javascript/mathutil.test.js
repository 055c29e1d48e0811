const test = require('node:test');
const assert = require('node:assert');
const { gcd, lcm } = require('./mathutil');

test('gcd', () => {
  assert.strictEqual(gcd(12, 18), 6);
  assert.strictEqual(gcd(7, 0), 7);
});

test('lcm', () => {
  assert.strictEqual(lcm(4, 6), 12);
});
