'use strict';

// Loaded by .mocharc.yml (require): root hooks for every spec file.
const fixtures = require('./fixtures/cases.json');

exports.mochaHooks = {
  beforeAll() {
    this.fixtures = fixtures;
  },
};
