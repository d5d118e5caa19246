// Pattern: methods created per instance in a constructor (`this.emit = function () {}`) and arrow fields,
// then invoked via the instance. Modelled on older EventEmitter / stream shims that bind methods in constructors.
'use strict';

function Channel(name) {
  const listeners = [];
  this.name = name;

  this.subscribe = function (listener) {
    listeners.push(listener);
    return this;
  };

  this.publish = function publish(message) {
    listeners.forEach((listener) => listener(this.format(message)));
  };

  this.format = (message) => '[' + name + '] ' + message;
}

class Counter {
  constructor() {
    this.count = 0;
    this.increment = () => {
      this.count += 1;
    };
  }
}

const counter = new Counter();
const received = [];
const channel = new Channel('news');
channel.subscribe(function record(msg) {
  received.push(msg);
}).subscribe(counter.increment);

channel.publish('hello');
channel.publish('world');
console.log(received.join('; '), counter.count);
