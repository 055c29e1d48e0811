'use strict';

module.exports = {
  ...require('./lib/duration'),
  ...require('./lib/retry'),
};
