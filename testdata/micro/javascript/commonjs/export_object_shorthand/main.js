// Pattern: `module.exports = { a, b }` with shorthand properties referring to local functions, used both
// via the namespace object and via destructuring. Modelled on small utility packages like `escape-html` helpers.
'use strict';

const strings = require('./strings');
const { capitalize } = require('./strings');

console.log(strings.slugify('Hello Big World'), capitalize('micro'), strings.truncate('abcdefgh', 4));
