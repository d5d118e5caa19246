// Pattern: calling a member straight off a require() result, and through a module object binding.
// Modelled on `require('util').inspect(...)`-style one-off calls and `const path = require('./path')` usage.
'use strict';

const pathUtil = require('./path-util');

const joined = require('./path-util').join('a', 'b', 'c');
const ext = pathUtil.extname('index.min.js');
console.log(joined, ext, require('./path-util').basename('/srv/app/main.js'));
