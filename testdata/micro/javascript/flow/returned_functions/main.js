// Pattern: functions returned from calls and invoked immediately (`make()(x)`), curried factories,
// and returned closures stored then called. Modelled on lodash's `_.memoize` / `_.partial` and redux's thunks.
'use strict';

function memoize(fn) {
  const cache = new Map();
  return function memoized(key) {
    if (!cache.has(key)) cache.set(key, fn(key));
    return cache.get(key);
  };
}

function partial(fn, ...bound) {
  return (...rest) => fn(...bound, ...rest);
}

function fib(n) {
  return n < 2 ? n : fastFib(n - 1) + fastFib(n - 2);
}

function formatPrice(currency, amount) {
  return currency + amount.toFixed(2);
}

function selectFormatter(locale) {
  if (locale === 'en-US') {
    return partial(formatPrice, '$');
  }
  return partial(formatPrice, 'EUR ');
}

const fastFib = memoize(fib);

console.log(fastFib(20), selectFormatter('en-US')(3.5), selectFormatter('de-DE')(1));
console.log(memoize(Math.sqrt)(81));
