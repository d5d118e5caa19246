// Pattern: `module.exports = class Command {}` required and instantiated, plus a subclass in another module.
// Modelled on commander's Command/Option classes (lib/command.js, lib/option.js).
'use strict';

const Command = require('./command');
const { Option } = require('./option');

const program = new Command('tool');
program.addOption(new Option('-v, --verbose', 'print more'));
program.action(function run(opts) {
  return 'running with ' + JSON.stringify(opts);
});
console.log(program.parse(['--verbose']));
