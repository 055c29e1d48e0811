'use strict';

const assert = require('assert');
const {backoff, retry} = require('../index');

describe('backoff', () => {
  it('doubles from the base', () => {
    assert.deepStrictEqual(backoff({base: 100, attempts: 4}), [100, 200, 400]);
  });

  it('caps the delay', () => {
    assert.deepStrictEqual(backoff({base: 1000, factor: 10, cap: 5000, attempts: 4}), [1000, 5000, 5000]);
  });
});

describe('retry', () => {
  const noSleep = () => Promise.resolve();

  it('returns the first success', async () => {
    let calls = 0;
    const value = await retry(async () => {
      calls++;
      if (calls < 3) throw new Error('flaky');
      return 'ok';
    }, {sleep: noSleep});
    assert.strictEqual(value, 'ok');
    assert.strictEqual(calls, 3);
  });

  it('rethrows the last error', async () => {
    await assert.rejects(retry(async (n) => {
      throw new Error(`fail ${n}`);
    }, {attempts: 3, sleep: noSleep}), {message: 'fail 2'});
  });

  it('waits between attempts', async () => {
    const waits = [];
    await retry(async (n) => {
      if (n < 2) throw new Error('again');
    }, {base: 10, sleep: async (ms) => waits.push(ms)});
    assert.deepStrictEqual(waits, [10, 20]);
  });
});
