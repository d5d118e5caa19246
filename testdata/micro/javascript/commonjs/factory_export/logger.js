'use strict';

const LEVELS = { debug: 10, info: 20, warn: 30 };

function formatLine(name, level, msg) {
  return name + ' ' + level.toUpperCase() + ' ' + msg;
}

module.exports = function createLogger(opts, sink) {
  const lines = sink || [];
  const threshold = LEVELS[opts.level];

  function write(level, msg) {
    if (LEVELS[level] >= threshold) lines.push(formatLine(opts.name, level, msg));
  }

  return {
    debug: (msg) => write('debug', msg),
    info: (msg) => write('info', msg),
    warn(msg) {
      write('warn', msg);
    },
    child(suffix) {
      return createLogger({ ...opts, name: opts.name + ':' + suffix }, lines);
    },
    flush() {
      return lines.slice();
    },
  };
};
