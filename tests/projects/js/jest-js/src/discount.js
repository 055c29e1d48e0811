'use strict';

const {Money} = require('./money');

// A discount rule: {kind: 'percent', value: 10} | {kind: 'fixed', cents: 500} |
// {kind: 'bulk', sku, minQty, percent}.
function applyDiscount(line, rule) {
  const gross = line.price.times(line.qty);
  switch (rule.kind) {
    case 'percent':
      return gross.subtract(gross.times(rule.value / 100));
    case 'fixed': {
      const off = new Money(Math.min(rule.cents, gross.cents), gross.currency);
      return gross.subtract(off);
    }
    case 'bulk':
      if (line.sku === rule.sku && line.qty >= rule.minQty) {
        return gross.subtract(gross.times(rule.percent / 100));
      }
      return gross;
    default:
      throw new Error(`unknown discount kind: ${rule.kind}`);
  }
}

function bestDiscount(line, rules) {
  let best = line.price.times(line.qty);
  for (const rule of rules) {
    const total = applyDiscount(line, rule);
    if (total.cents < best.cents) best = total;
  }
  return best;
}

module.exports = {applyDiscount, bestDiscount};
