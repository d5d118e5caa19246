// Pattern: `X.prototype.m = function m() {}` methods on a constructor function, calling each other via `this`.
// Modelled on eventemitter3's EventEmitter.prototype.on/emit/removeListener.
'use strict';

function EventEmitter() {
  this._events = Object.create(null);
}

EventEmitter.prototype.on = function on(event, fn) {
  (this._events[event] || (this._events[event] = [])).push({ fn, once: false });
  return this;
};

EventEmitter.prototype.once = function once(event, fn) {
  this.on(event, fn);
  this._events[event][this._events[event].length - 1].once = true;
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(event, fn) {
  this._events[event] = this._events[event].filter((l) => l.fn !== fn);
};

EventEmitter.prototype.emit = function emit(event, ...args) {
  const listeners = (this._events[event] || []).slice();
  for (const listener of listeners) {
    if (listener.once) this.removeListener(event, listener.fn);
    listener.fn.apply(this, args);
  }
  return listeners.length > 0;
};

EventEmitter.prototype.addListener = EventEmitter.prototype.on;

const log = [];
function onData(chunk) {
  log.push('data:' + chunk);
}
function onEnd() {
  log.push('end');
}

const ee = new EventEmitter();
ee.addListener('data', onData).once('end', onEnd);
ee.emit('data', 'a');
ee.emit('end');
ee.emit('end');
console.log(log.join(','));
