// Pattern: object keys are not bindings: `{ stripColor: (s) => stripColor(s) }` calls the outer
// function, not the property itself. Modelled on chalk / strip-ansi style helper exports.
function stripColor(text) {
  return text.replace(/\u001b\[\d+m/g, '');
}

function red(text) {
  return `\u001b[31m${text}\u001b[39m`;
}

const helpers = {
  red: (text) => red(text),
  stripColor: (text) => stripColor(text),
  length(text) {
    return stripColor(text).length;
  },
};

const colored = helpers.red('error');
console.log(JSON.stringify(helpers.stripColor(colored)), helpers.length(colored));
