// Pattern: `var` hoisting: a function-scoped `var` holding a function is assigned inside a block
// and called after it; a var shadows an outer binding for the whole function. Modelled on old UMD/jQuery-era code.
var parse = function (input) {
  return JSON.parse(input);
};

function loadConfig(raw, lenient) {
  if (lenient) {
    var parse = function (input) {
      try {
        return JSON.parse(input);
      } catch (e) {
        return { fallback: true };
      }
    };
  } else {
    parse = strictParse;
  }
  return parse(raw);
}

function strictParse(input) {
  return { strict: true, value: JSON.parse(input) };
}

console.log(loadConfig('{"a":1}', false));
console.log(loadConfig('not json', true));
console.log(parse('[1,2]'));
