'use strict';

const SYMBOLS = {USD: '$', EUR: '€', GBP: '£'};

function formatMoney(money) {
  const sign = money.cents < 0 ? '-' : '';
  const abs = Math.abs(money.cents);
  const whole = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOLS[money.currency];
  return symbol ? `${sign}${symbol}${grouped}.${cents}` : `${sign}${grouped}.${cents} ${money.currency}`;
}

function parseMoney(text) {
  const m = /^(-)?([$€£])?\s*([\d,]+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[3].replace(/,/g, ''));
  const cents = Number((m[4] || '0').padEnd(2, '0'));
  const currency = Object.keys(SYMBOLS).find((k) => SYMBOLS[k] === m[2]) || 'USD';
  const total = whole * 100 + cents;
  return {cents: m[1] ? -total : total, currency};
}

module.exports = {formatMoney, parseMoney};
