'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { padStart } = require('..');

test('padStart pads on the left', () => {
  assert.equal(padStart('7', 3, '0'), '007');
});

test('padStart leaves a long text alone', () => {
  assert.equal(padStart('12345', 3), '12345');
});
