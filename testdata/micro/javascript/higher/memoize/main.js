// Pattern: memoize wrapping a recursive function (the recursion goes through the memoized binding) and a
// memoize with a custom resolver. Modelled on lodash.memoize and reselect-style caches.
function memoize(fn, resolver) {
  const cache = new Map();
  return function memoized(...args) {
    const key = resolver ? resolver(...args) : args[0];
    if (cache.has(key)) {
      return cache.get(key);
    }
    const result = fn.apply(this, args);
    cache.set(key, result);
    return result;
  };
}

const fibonacci = memoize(function fib(n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
});

function fullName(user, locale) {
  return locale === 'ja' ? `${user.last} ${user.first}` : `${user.first} ${user.last}`;
}

function cacheKey(user, locale) {
  return `${user.id}:${locale}`;
}

const cachedFullName = memoize(fullName, cacheKey);
const ada = { id: 1, first: 'Ada', last: 'Lovelace' };
console.log(fibonacci(30));
console.log(cachedFullName(ada, 'en'), cachedFullName(ada, 'ja'), cachedFullName(ada, 'en'));
