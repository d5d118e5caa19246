// Pattern: callbacks scheduled with setTimeout, setImmediate, process.nextTick and queueMicrotask,
// including a timer that reschedules itself. Modelled on debounce/flush logic in batching libraries.
const order = [];

function flushMicrotasks() {
  order.push('microtask');
}

function onNextTick(label) {
  order.push(`nextTick:${label}`);
}

function onImmediate() {
  order.push('immediate');
}

function poll(remaining) {
  order.push(`poll:${remaining}`);
  if (remaining === 2) {
    setImmediate(onImmediate);
  }
  if (remaining > 0) {
    setTimeout(poll, 0, remaining - 1);
  } else {
    setTimeout(report, 2);
  }
}

function report() {
  console.log(order.join(' -> '));
}

setTimeout(poll, 0, 2);
process.nextTick(onNextTick, 'first');
queueMicrotask(flushMicrotasks);
