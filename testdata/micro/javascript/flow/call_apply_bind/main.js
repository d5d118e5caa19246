// Pattern: invoking function values through .call, .apply and .bind (including bound methods passed as callbacks).
// Modelled on eventemitter3's `listener.fn.apply(listener.context, args)` and mobx's action wrappers.
'use strict';

function createAction(name, fn) {
  return function action(...args) {
    store.log.push('action:' + name);
    return fn.apply(this, args);
  };
}

const store = {
  log: [],
  count: 0,
  add(n) {
    this.count += n;
    return this.count;
  },
  reset() {
    this.count = 0;
  },
};

function describe(prefix, suffix) {
  return prefix + this.count + suffix;
}

function runLater(callback) {
  return callback();
}

store.increment = createAction('increment', store.add);
store.increment(2);
store.add.call(store, 3);
const text = describe.apply(store, ['count=', '!']);
const boundReset = store.reset.bind(store);
runLater(boundReset);
const addTen = store.add.bind(store, 10);
console.log(text, runLater(addTen), Array.prototype.join.call(store.log, ','));
