const EventEmitter = require('events');

class JobQueue extends EventEmitter {
  constructor() {
    super();
    this.jobs = [];
  }

  add(job) {
    this.jobs.push(job);
    this.emit('added', job);
  }

  drain() {
    while (this.jobs.length) {
      this.emit('job', this.jobs.shift());
    }
    this.emit('drained');
  }
}

module.exports = { JobQueue };
