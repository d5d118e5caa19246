// Pattern: destructuring require() with renaming: `const { parse, stringify: serialize } = require('./qs')`.
// The module mixes `exports.x =` and `module.exports.y =`. Modelled on the `qs` / `querystring` API.
'use strict';

const { parse, stringify: serialize } = require('./qs');
const { escape: esc } = require('./qs');

const parsed = parse('a=1&b=hello%20world');
console.log(JSON.stringify(parsed), serialize({ q: 'x y', n: 2 }), esc('&'));
