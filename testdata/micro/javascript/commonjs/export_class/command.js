'use strict';

module.exports = class Command {
  constructor(name) {
    this.name = name;
    this.options = [];
    this._actionHandler = null;
  }

  addOption(option) {
    this.options.push(option);
    return this;
  }

  action(fn) {
    this._actionHandler = fn;
    return this;
  }

  parse(argv) {
    const opts = {};
    for (const option of this.options) {
      opts[option.attributeName()] = option.is(argv[0]) || undefined;
    }
    return this._actionHandler(opts);
  }
};
