'use strict';

const assert = require('assert');
const {parseDuration, formatDuration} = require('..');

describe('parseDuration', () => {
  [
    ['250ms', 250],
    ['2s', 2000],
    ['1h30m', 5400000],
    ['2d 4h', 187200000],
    ['1.5s', 1500],
  ].forEach(([text, ms]) => {
    it(`parses ${text}`, () => {
      assert.strictEqual(parseDuration(text), ms);
    });
  });

  it('rejects junk', () => {
    assert.throws(() => parseDuration('soon'), SyntaxError);
    assert.throws(() => parseDuration('5 parsecs'), /invalid duration/);
  });
});

describe('formatDuration', () => {
  it('keeps milliseconds below a second', () => {
    assert.strictEqual(formatDuration(999), '999ms');
  });

  it('writes the largest units first', () => {
    assert.strictEqual(formatDuration(93784000), '1d 2h 3m 4s');
  });

  it('round-trips with parseDuration', () => {
    assert.strictEqual(parseDuration(formatDuration(5400000)), 5400000);
  });
});
