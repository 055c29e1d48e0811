// Through the package's own name and its "exports" (self-reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customAlphabet } from 'twin-ids/non-secure';

test('customAlphabet through the package name', () => {
  assert.equal(customAlphabet('xy', 3)().length, 3);
});
