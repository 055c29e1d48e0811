'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { padEnd } = require('../');

test('padEnd pads on the right', () => {
  assert.equal(padEnd('ab', 4, '.'), 'ab..');
});
