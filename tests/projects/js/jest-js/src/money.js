'use strict';

// Amounts are integer cents; currencies are ISO codes.
class Money {
  constructor(cents, currency = 'USD') {
    if (!Number.isInteger(cents)) throw new TypeError(`cents must be an integer, got ${cents}`);
    this.cents = cents;
    this.currency = currency;
  }

  static of(amount, currency) {
    return new Money(Math.round(amount * 100), currency);
  }

  add(other) {
    this.#same(other);
    return new Money(this.cents + other.cents, this.currency);
  }

  subtract(other) {
    this.#same(other);
    return new Money(this.cents - other.cents, this.currency);
  }

  times(factor) {
    return new Money(Math.round(this.cents * factor), this.currency);
  }

  // Splits into n parts whose sum is exactly this amount; the first parts get the extra cents.
  allocate(n) {
    if (n <= 0) throw new RangeError('cannot allocate into no parts');
    const base = Math.floor(this.cents / n);
    const extra = this.cents - base * n;
    return Array.from({length: n}, (_, i) => new Money(base + (i < extra ? 1 : 0), this.currency));
  }

  isZero() {
    return this.cents === 0;
  }

  equals(other) {
    return other instanceof Money && other.cents === this.cents && other.currency === this.currency;
  }

  #same(other) {
    if (other.currency !== this.currency) {
      throw new Error(`currency mismatch: ${this.currency} vs ${other.currency}`);
    }
  }
}

module.exports = {Money};
