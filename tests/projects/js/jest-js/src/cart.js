'use strict';

const {Money} = require('./money');
const {bestDiscount} = require('./discount');

class Cart {
  constructor(currency = 'USD') {
    this.currency = currency;
    this.lines = new Map();
    this.rules = [];
  }

  add(sku, price, qty = 1) {
    if (qty <= 0) throw new RangeError(`quantity must be positive: ${qty}`);
    const line = this.lines.get(sku);
    if (line) {
      line.qty += qty;
    } else {
      this.lines.set(sku, {sku, price, qty});
    }
    return this;
  }

  remove(sku, qty = Infinity) {
    const line = this.lines.get(sku);
    if (!line) return false;
    line.qty -= qty;
    if (line.qty <= 0) this.lines.delete(sku);
    return true;
  }

  addRule(rule) {
    this.rules.push(rule);
    return this;
  }

  get count() {
    let n = 0;
    for (const line of this.lines.values()) n += line.qty;
    return n;
  }

  subtotal() {
    let total = new Money(0, this.currency);
    for (const line of this.lines.values()) total = total.add(line.price.times(line.qty));
    return total;
  }

  total() {
    let total = new Money(0, this.currency);
    for (const line of this.lines.values()) total = total.add(bestDiscount(line, this.rules));
    return total;
  }

  async checkout(payments) {
    const amount = this.total();
    if (amount.isZero()) throw new Error('cart is empty');
    const receipt = await payments.charge(amount);
    this.lines.clear();
    return {id: receipt.id, amount};
  }
}

module.exports = {Cart};
