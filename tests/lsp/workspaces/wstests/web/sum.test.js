const { describe, it } = require('node:test');
const assert = require('node:assert');

describe('sum', () => {
  it('adds', () => {
    assert.strictEqual(1 + 1, 2);
  });
});
