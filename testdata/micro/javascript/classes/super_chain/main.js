// Pattern: three-level inheritance with super(...) in constructors, overriding, and super.m().
// Modelled on stream-like class hierarchies (Readable -> Transform -> a concrete transform).
class Stream {
  constructor(name) {
    this.name = name;
    this.chunks = [];
  }

  write(chunk) {
    this.chunks.push(this.transform(chunk));
  }

  transform(chunk) {
    return chunk;
  }

  describe() {
    return `stream ${this.name}`;
  }
}

class Transform extends Stream {
  constructor(name, prefix) {
    super(name);
    this.prefix = prefix;
  }

  transform(chunk) {
    return this.prefix + super.transform(chunk);
  }

  describe() {
    return `${super.describe()} (transform)`;
  }
}

class UpperCaseTransform extends Transform {
  constructor() {
    super('upper', '> ');
  }

  transform(chunk) {
    return super.transform(chunk).toUpperCase();
  }
}

const upper = new UpperCaseTransform();
upper.write('hello');
upper.write('world');
console.log(upper.describe(), upper.chunks.join(' | '));
