// Pattern: generator functions, `yield*` delegation, and `for...of` over a class implementing
// [Symbol.iterator] (the loop implicitly calls the generator method). Modelled on immutable.js / iterare.
function* range(start, end) {
  for (let i = start; i < end; i++) {
    yield i;
  }
}

function* evens(source) {
  for (const n of source) {
    if (n % 2 === 0) {
      yield n;
    }
  }
}

class Tree {
  constructor(value, children = []) {
    this.value = value;
    this.children = children;
  }

  *[Symbol.iterator]() {
    yield this.value;
    for (const child of this.children) {
      yield* child;
    }
  }
}

const tree = new Tree('root', [new Tree('a', [new Tree('a1')]), new Tree('b')]);
console.log([...tree].join(' '));

let total = 0;
for (const n of evens(range(0, 10))) {
  total += n;
}
console.log('sum of evens', total);
