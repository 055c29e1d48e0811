'use strict';

module.exports = {
  ...require('./money'),
  ...require('./cart'),
  ...require('./discount'),
  ...require('./format'),
};
