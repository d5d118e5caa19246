// Pattern: `once` (runs the wrapped function only the first time) and a synchronous, clock-injected
// throttle. Modelled on the `once` npm package and lodash.throttle.
function once(fn) {
  let called = false;
  let result;
  return function onceWrapper(...args) {
    if (!called) {
      called = true;
      result = fn.apply(this, args);
    }
    return result;
  };
}

function throttle(fn, wait, now) {
  let last = -Infinity;
  return function throttled(...args) {
    const time = now();
    if (time - last >= wait) {
      last = time;
      fn(...args);
    }
  };
}

function connect() {
  console.log('connecting to database');
  return { connected: true };
}

function saveDraft(text) {
  console.log('saved draft:', text);
}

let clock = 0;
function fakeNow() {
  return clock;
}

const getConnection = once(connect);
getConnection();
console.log(getConnection().connected);

const autosave = throttle(saveDraft, 100, fakeNow);
for (const [t, text] of [[0, 'h'], [50, 'he'], [120, 'hel'], [150, 'hell']]) {
  clock = t;
  autosave(text);
}
