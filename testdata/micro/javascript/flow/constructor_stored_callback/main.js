// Pattern: function values stored in fields (in the constructor and by setters) and called later through the field.
// Modelled on commander's `this._exitCallback = fn` / `exitOverride(fn)` and `_actionHandler`.
'use strict';

class CommanderError extends Error {
  constructor(exitCode, code, message) {
    super(message);
    this.exitCode = exitCode;
    this.code = code;
  }
}

function defaultExit(err) {
  return 'exit(' + err.exitCode + ')';
}

class Program {
  constructor(outputWriter) {
    this._exitCallback = defaultExit;
    this._writeOut = outputWriter;
    this._actionHandler = null;
  }

  exitOverride(fn) {
    this._exitCallback = fn;
    return this;
  }

  action(fn) {
    this._actionHandler = (args) => fn.apply(this, args);
    return this;
  }

  _exit(exitCode, code, message) {
    this._writeOut(message);
    return this._exitCallback(new CommanderError(exitCode, code, message));
  }

  parse(args) {
    if (args.length === 0) return this._exit(1, 'missing', 'error: missing argument');
    return this._actionHandler(args);
  }
}

const lines = [];
const program = new Program((msg) => lines.push(msg));
program.action(function greet(name) {
  return 'hello ' + name;
});
lines.push(program.parse(['ann']));
lines.push(program.parse([]));
program.exitOverride((err) => 'override:' + err.code);
lines.push(program.parse([]));
console.log(lines.join(' | '));
