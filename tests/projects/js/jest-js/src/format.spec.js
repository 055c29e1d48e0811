'use strict';

const {formatMoney, parseMoney} = require('./format');
const {Money} = require('./money');

describe('formatMoney', () => {
  test('formats dollars with a symbol', () => {
    expect(formatMoney(new Money(123456))).toBe('$1,234.56');
  });

  test('formats a negative amount', () => {
    expect(formatMoney(new Money(-5, 'EUR'))).toBe('-€0.05');
  });

  test('falls back to the code for unknown currencies', () => {
    expect(formatMoney(new Money(1000, 'CHF'))).toBe('10.00 CHF');
  });
});

describe('parseMoney', () => {
  test.each(['$1,234.56', '1234.56', '  $1234.56 '])('parses %p', (text) => {
    expect(parseMoney(text)).toEqual({cents: 123456, currency: 'USD'});
  });

  test('reads one decimal as tens of cents ($0.5 (rounded) → 50)', () => {
    expect(parseMoney('$0.5')).toEqual({cents: 50, currency: 'USD'});
  });

  test('returns null for junk', () => {
    expect(parseMoney('twelve')).toBeNull();
  });

  test('round-trips through formatMoney', () => {
    const m = new Money(-987654, 'GBP');
    expect(parseMoney(formatMoney(m))).toEqual({cents: m.cents, currency: m.currency});
  });
});
