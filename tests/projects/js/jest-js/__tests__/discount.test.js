'use strict';

const {applyDiscount, bestDiscount} = require('../src/discount');
const {usd} = require('./helpers/fixtures');

const line = (sku, price, qty) => ({sku, price: usd(price), qty});

describe('applyDiscount', () => {
  it.each`
    rule                                                  | expected
    ${{kind: 'percent', value: 10}}                       | ${900}
    ${{kind: 'fixed', cents: 250}}                        | ${750}
    ${{kind: 'fixed', cents: 5000}}                       | ${0}
    ${{kind: 'bulk', sku: 'tea', minQty: 5, percent: 20}} | ${1000}
    ${{kind: 'bulk', sku: 'tea', minQty: 2, percent: 20}} | ${800}
  `('$rule.kind discount gives $expected', ({rule, expected}) => {
    expect(applyDiscount(line('tea', 5, 2), rule).cents).toBe(expected);
  });

  it('throws on an unknown rule', () => {
    expect(() => applyDiscount(line('tea', 1, 1), {kind: 'bogo'})).toThrow('unknown discount kind: bogo');
  });
});

describe('bestDiscount', () => {
  it('keeps the gross price without rules', () => {
    expect(bestDiscount(line('tea', 2.5, 4), []).cents).toBe(1000);
  });

  it('picks the cheapest of several rules', () => {
    const rules = [{kind: 'percent', value: 5}, {kind: 'fixed', cents: 300}, {kind: 'percent', value: 20}];
    expect(bestDiscount(line('tea', 10, 1), rules).cents).toBe(700);
  });
});
