'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { center } = require('../lib/pad.js');

test('center puts the extra fill on the right', () => {
  assert.equal(center('ab', 5, '*'), '*ab**');
});
