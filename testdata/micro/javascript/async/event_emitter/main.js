// Pattern: EventEmitter listeners registered with on/once/prependListener and invoked via emit, both on a
// subclass of EventEmitter and a plain emitter. Modelled on bull/ioredis-style queues and process events.
const EventEmitter = require('events');
const { JobQueue } = require('./bus');

function logAdded(job) {
  console.log('added', job.id);
}

function runJob(job) {
  console.log('running', job.id);
}

function onFirstDrain() {
  console.log('queue drained (once)');
}

function audit(job) {
  console.log('audit before run', job.id);
}

const queue = new JobQueue();
queue.on('added', logAdded);
queue.on('job', runJob);
queue.prependListener('job', audit);
queue.once('drained', onFirstDrain);
queue.add({ id: 1 });
queue.add({ id: 2 });
queue.drain();
queue.drain();

const signals = new EventEmitter();
signals.on('shutdown', (reason) => console.log('shutdown because', reason));
signals.emit('shutdown', 'done');
