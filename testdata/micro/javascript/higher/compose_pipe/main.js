// Pattern: function composition: `compose(f, g, h)` (right to left, via reduce) and `pipe` (left to right,
// via a loop); the composed function calls the user's functions. Modelled on redux's compose and lodash/fp flow.
function compose(...fns) {
  return fns.reduce(function combine(outer, inner) {
    return (...args) => outer(inner(...args));
  });
}

function pipe(...fns) {
  return function piped(input) {
    let value = input;
    for (const fn of fns) {
      value = fn(value);
    }
    return value;
  };
}

function trim(text) {
  return text.trim();
}

function toKebab(text) {
  return text.replace(/\s+/g, '-');
}

function lower(text) {
  return text.toLowerCase();
}

function prefixSlash(text) {
  return `/${text}`;
}

const slugify = compose(prefixSlash, lower, toKebab);
const normalize = pipe(trim, slugify);
console.log(normalize('  Hello Big World  '));
