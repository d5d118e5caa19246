'use strict';

const math = require('./math');

module.exports = {
  ...math,
  range: require('./array').range,
  pipe: require('./fp'),
};
module.exports.double = require('./fp').double;
