// Pattern: function declarations used before they appear in the source (hoisting), including
// nested helpers declared after a return. Modelled on CLI entry files like npm's bin scripts.
main(['--verbose', 'build']);

function main(argv) {
  const options = parseArgs(argv);
  runCommand(options);
}

function parseArgs(argv) {
  return { verbose: argv.includes('--verbose'), command: argv.filter(isPositional)[0] };

  function isPositional(arg) {
    return !arg.startsWith('--');
  }
}

function runCommand(options) {
  if (options.verbose) {
    log(`running ${options.command}`);
  }
}

function log(message) {
  console.log(message);
}
