'use strict';
// src/ modules loaded by bare name through jest's moduleDirectories (jest.config.js): the tests
// of src/format.js include this file only as jest itself resolves 'format'.
const {formatMoney} = require('format');
const {Money} = require('money');

test('formats cents through a bare module name', () => {
  expect(formatMoney(new Money(250000, 'GBP'))).toBe('£2,500.00');
});
