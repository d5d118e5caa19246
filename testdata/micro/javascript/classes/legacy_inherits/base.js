function Emitter() {
  this.handlers = {};
}

Emitter.prototype.on = function (event, fn) {
  (this.handlers[event] = this.handlers[event] || []).push(fn);
  return this;
};

Emitter.prototype.emit = function (event, arg) {
  (this.handlers[event] || []).forEach((fn) => fn(arg));
};

module.exports = Emitter;
