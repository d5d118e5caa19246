// Pattern: an index module re-exporting other modules (`module.exports = require(...)`, `exports.x = require(...).x`,
// object spread of a required module). Modelled on package entry points such as lodash's or rxjs's index files.
'use strict';

const lib = require('./lib');

const nums = lib.range(1, 6);
console.log(lib.sum(nums), lib.clamp(12, 0, 10), lib.pipe(lib.double, lib.increment)(5));
