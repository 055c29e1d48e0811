'use strict';

const {Cart} = require('../src/cart');
const {usd, fakePayments} = require('./helpers/fixtures');

describe('Cart', () => {
  let cart;

  beforeEach(() => {
    cart = new Cart();
  });

  test('starts empty', () => {
    expect(cart.count).toBe(0);
    expect(cart.subtotal().isZero()).toBe(true);
  });

  test('merges lines of the same sku', () => {
    cart.add('apple', usd(0.5), 2).add('apple', usd(0.5), 3);
    expect(cart.lines.size).toBe(1);
    expect(cart.count).toBe(5);
  });

  test('rejects a zero quantity', () => {
    expect(() => cart.add('apple', usd(0.5), 0)).toThrow(/quantity must be positive/);
  });

  describe('removing', () => {
    beforeEach(() => {
      cart.add('pear', usd(0.75), 4);
    });

    test('removes part of a line', () => {
      expect(cart.remove('pear', 1)).toBe(true);
      expect(cart.count).toBe(3);
    });

    test('drops a line that reaches zero', () => {
      cart.remove('pear');
      expect(cart.lines.has('pear')).toBe(false);
    });

    test('reports a missing sku', () => {
      expect(cart.remove('kiwi')).toBe(false);
    });
  });

  describe('totals', () => {
    test('subtotal sums every line', () => {
      cart.add('apple', usd(0.5), 2).add('melon', usd(3.2));
      expect(cart.subtotal().cents).toBe(420);
    });

    test('total applies the best rule per line', () => {
      cart.add('apple', usd(1), 10).add('melon', usd(4));
      cart.addRule({kind: 'percent', value: 10}).addRule({kind: 'bulk', sku: 'apple', minQty: 10, percent: 25});
      // apple: 1000 - 25% = 750; melon: 400 - 10% = 360
      expect(cart.total()).toMatchObject({cents: 1110, currency: 'USD'});
    });
  });

  describe('checkout', () => {
    test('charges the total and empties the cart', async () => {
      const payments = fakePayments();
      cart.add('apple', usd(2), 3);
      const receipt = await cart.checkout(payments);
      expect(receipt).toEqual({id: 'ch_1', amount: expect.objectContaining({cents: 600})});
      expect(payments.charges).toHaveLength(1);
      expect(cart.count).toBe(0);
    });

    test('refuses an empty cart', async () => {
      await expect(cart.checkout(fakePayments())).rejects.toThrow('cart is empty');
    });
  });
});
