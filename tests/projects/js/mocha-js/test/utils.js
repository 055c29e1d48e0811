'use strict';

const assert = require('node:assert/strict');
const {encode, decode, merge, isPlainObject} = require('../lib/utils');

describe('utils', function () {
  describe('encode()', function () {
    it('keeps unreserved characters', function () {
      assert.equal(encode('abc-_.~XYZ09'), 'abc-_.~XYZ09');
    });

    it('percent-encodes reserved characters', function () {
      assert.equal(encode('a b&c=d'), 'a%20b%26c%3Dd');
    });

    it('encodes UTF-8 bytes', function () {
      assert.equal(encode('é'), '%C3%A9');
    });
  });

  describe('decode()', function () {
    it('turns + into a space', function () {
      assert.equal(decode('a+b'), 'a b');
    });

    it('keeps malformed sequences', function () {
      assert.equal(decode('%E0%A4%A'), '%E0%A4%A');
    });
  });

  describe('merge()', function () {
    it('merges objects deeply', function () {
      assert.deepEqual(merge({a: {b: 1}}, {a: {c: 2}}), {a: {b: 1, c: 2}});
    });

    it('concatenates arrays', function () {
      assert.deepEqual(merge(['a'], ['b', 'c']), ['a', 'b', 'c']);
    });

    it('collects scalars into an array', function () {
      assert.deepEqual(merge('x', 'y'), ['x', 'y']);
    });
  });

  it('recognises plain objects only', function () {
    assert.ok(isPlainObject({}));
    assert.ok(!isPlainObject([]));
    assert.ok(!isPlainObject(null));
    assert.ok(!isPlainObject(new Date()));
  });
});
