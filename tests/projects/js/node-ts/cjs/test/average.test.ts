import { test } from 'node:test';
import assert from 'node:assert';
import { average } from '../src/average';

test('averages numbers', () => {
  assert.strictEqual(average([1, 2, 3, 4]), 2.5);
});

test('refuses an empty list', () => {
  assert.throws(() => average([]), RangeError);
});
