// Pattern: static factory methods (`Cls.create()`), statics calling other statics via `this`,
// and inherited static methods. Modelled on debug/winston style `Logger.create(ns)` factories.
class Logger {
  static create(namespace) {
    const level = this.defaultLevel();
    return new this(namespace, level);
  }

  static defaultLevel() {
    return 'info';
  }

  constructor(namespace, level) {
    this.namespace = namespace;
    this.level = level;
  }

  log(message) {
    console.log(`[${this.level}] ${this.namespace}: ${message}`);
  }
}

class DebugLogger extends Logger {
  static defaultLevel() {
    return 'debug';
  }

  log(message) {
    super.log(`${message} (+0ms)`);
  }
}

const app = Logger.create('app');
app.log('started');

const db = DebugLogger.create('db');
db.log('connected');
