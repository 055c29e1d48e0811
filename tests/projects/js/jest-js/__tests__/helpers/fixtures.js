'use strict';

const {Money} = require('../../src/money');

exports.usd = (amount) => Money.of(amount, 'USD');

exports.fakePayments = () => {
  const charges = [];
  return {
    charges,
    async charge(amount) {
      charges.push(amount);
      return {id: `ch_${charges.length}`};
    },
  };
};
