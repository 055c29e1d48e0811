'use strict';

// Lifetimes seen from the tests: nothing the runner (or greenlight's reporter, a warm
// interpreter) adds may keep what the library returned alive. gc is exposed the way a test
// suite can do it itself, without node's --expose-gc.
const v8 = require('node:v8');
const vm = require('node:vm');
const {Cart} = require('../src/cart');
const {usd} = require('./helpers/fixtures');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// A WeakRef's target is kept until the current job ends: collect on a later turn.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('lifetimes', () => {
  test('a dropped cart is freed', async () => {
    let cart = new Cart().add('apple', usd(0.5), 2);
    const ref = new WeakRef(cart);
    expect(cart.count).toBe(2);
    cart = null;
    await nextTurn();
    gc();
    expect(ref.deref()).toBeUndefined();
  });

  test('the finalizer of a dropped subtotal runs', async () => {
    const finalized = [];
    const registry = new FinalizationRegistry((name) => finalized.push(name));
    (() => {
      const subtotal = new Cart().add('pear', usd(0.75), 4).subtotal();
      registry.register(subtotal, 'subtotal');
      expect(subtotal.isZero()).toBe(false);
    })();
    for (let i = 0; i < 5 && finalized.length === 0; i++) {
      await nextTurn();
      gc();
      await nextTurn();
    }
    expect(finalized).toEqual(['subtotal']);
  });
});
