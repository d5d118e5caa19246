'use strict';

class Option {
  constructor(flags, description) {
    this.flags = flags;
    this.description = description;
    this.long = flags.split(/[ ,]+/).find((f) => f.startsWith('--'));
  }

  attributeName() {
    return this.long.replace(/^--/, '');
  }

  is(arg) {
    return arg === this.long;
  }
}

exports.Option = Option;
