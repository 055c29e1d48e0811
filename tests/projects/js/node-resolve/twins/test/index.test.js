import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nanoid, idFrom } from '../index.js';

test('nanoid has the default size', () => {
  assert.equal(nanoid().length, 21);
});

test('nanoid takes a size', () => {
  assert.equal(nanoid(10).length, 10);
});

test('idFrom maps bytes to the alphabet', () => {
  assert.equal(idFrom([0, 1, 2, 64]), 'useu');
});
