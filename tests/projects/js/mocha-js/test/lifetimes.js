'use strict';

// Lifetimes seen from the tests: nothing the runner (or greenlight's reporter, a warm
// interpreter) adds may keep what the library returned alive. gc is exposed the way a test
// suite can do it itself, without node's --expose-gc.
const assert = require('node:assert/strict');
const v8 = require('node:v8');
const vm = require('node:vm');
const {parse, stringify} = require('..');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// A WeakRef's target is kept until the current job ends: collect on a later turn.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('lifetimes', function () {
  it('frees what parse returned once it is dropped', async function () {
    let parsed = parse('a[b]=1&c=2');
    const ref = new WeakRef(parsed);
    assert.equal(parsed.c, '2');
    parsed = null;
    await nextTurn();
    gc();
    assert.equal(ref.deref(), undefined);
  });

  it('runs the finalizers of dropped results', async function () {
    const finalized = [];
    const registry = new FinalizationRegistry((name) => finalized.push(name));
    (() => {
      const value = parse('x=1');
      registry.register(value, 'parsed');
      assert.equal(stringify(value), 'x=1');
    })();
    for (let i = 0; i < 5 && finalized.length === 0; i++) {
      await nextTurn();
      gc();
      await nextTurn();
    }
    assert.deepEqual(finalized, ['parsed']);
  });
});
