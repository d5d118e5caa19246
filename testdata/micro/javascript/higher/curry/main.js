// Pattern: arity-based currying (`curry(fn)` returning partially applied functions until enough args),
// and `partial`. Modelled on ramda's curry / lodash.curry and lodash.partial.
function curry(fn) {
  return function curried(...args) {
    if (args.length >= fn.length) {
      return fn.apply(this, args);
    }
    return (...more) => curried.apply(this, args.concat(more));
  };
}

function partial(fn, ...bound) {
  return (...rest) => fn(...bound, ...rest);
}

function propEq(key, value, obj) {
  return obj[key] === value;
}

function formatPrice(currency, decimals, amount) {
  return `${currency}${amount.toFixed(decimals)}`;
}

const isActive = curry(propEq)('status')('active');
const users = [{ name: 'ada', status: 'active' }, { name: 'bob', status: 'banned' }];
console.log(users.filter(isActive).map((u) => u.name));

const dollars = partial(formatPrice, '$', 2);
console.log(dollars(3.5));
