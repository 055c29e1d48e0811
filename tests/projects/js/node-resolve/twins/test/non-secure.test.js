import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nanoid, customAlphabet } from '../non-secure/index.js';

test('non-secure nanoid has the default size', () => {
  assert.equal(nanoid().length, 21);
});

test('non-secure nanoid uses url-safe symbols', () => {
  assert.match(nanoid(64), /^[\w-]+$/);
});

test('customAlphabet uses only its alphabet', () => {
  assert.equal(customAlphabet('ab', 4)(), 'baba');
});
