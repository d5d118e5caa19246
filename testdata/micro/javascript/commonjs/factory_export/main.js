// Pattern: a module exporting a factory whose returned object's methods are called by the requirer.
// Modelled on pino/winston-style `createLogger(opts)` and `require('debug')(ns)`.
'use strict';

const createLogger = require('./logger');

const log = createLogger({ level: 'info', name: 'svc' });
const child = log.child('db');
log.info('started');
log.debug('hidden');
child.warn('slow query');
console.log(log.flush().join('\n'));
