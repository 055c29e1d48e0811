'use strict';

module.exports = {
  parse: require('./lib/parse'),
  stringify: require('./lib/stringify'),
  ...require('./lib/utils'),
};
