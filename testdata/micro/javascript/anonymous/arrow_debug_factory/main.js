// Pattern: arrow functions bound to const names, including an arrow that returns an arrow.
// Modelled on the `debug` package: createDebug(namespace) returns a logger closure.
'use strict';

const lines = [];

const formatArgs = (namespace, args) => {
  return namespace + ' ' + args.map(String).join(' ');
};

const enabledFor = (namespace) => namespace.startsWith('app:');

const createDebug = (namespace) => {
  const debug = (...args) => {
    if (!debug.enabled) {
      return;
    }
    lines.push(formatArgs(namespace, args));
  };
  debug.enabled = enabledFor(namespace);
  debug.extend = (suffix) => createDebug(namespace + ':' + suffix);
  return debug;
};

const debugServer = createDebug('app:server');
const debugRouter = debugServer.extend('router');
const debugOther = createDebug('lib:other');

debugServer('listening on', 3000);
debugRouter('matched', '/users');
debugOther('hidden');

console.log(lines.join('\n'));
