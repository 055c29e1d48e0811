const assert = require('node:assert');
const { capitalize, reverse } = require('./strutil');

// Plain top-level asserts: the whole file is one test.
assert.strictEqual(reverse('abc'), 'cba');
console.assert(capitalize('word') === 'Word');
