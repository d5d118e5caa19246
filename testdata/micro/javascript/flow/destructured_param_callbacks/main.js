// Pattern: function values passed inside option objects and pulled out by destructured parameters
// (with defaults), then called. Modelled on rxjs `subscribe({ next, error, complete })` observers.
'use strict';

function noop() {}

function createObservable(producer) {
  return {
    subscribe({ next, error = noop, complete = noop }) {
      producer({ next, error, complete });
    },
  };
}

function fromArray(items) {
  return createObservable(({ next, complete }) => {
    items.forEach((item) => next(item));
    complete();
  });
}

function map(source, project) {
  return createObservable((observer) => {
    source.subscribe({
      next: (value) => observer.next(project(value)),
      complete: () => observer.complete(),
    });
  });
}

function square(n) {
  return n * n;
}

const seen = [];
map(fromArray([1, 2, 3]), square).subscribe({
  next(value) {
    seen.push(value);
  },
  complete: function onComplete() {
    seen.push('done');
  },
});
fromArray(['tail']).subscribe({
  next: (value) => seen.push(value),
});
console.log(seen.join(','));
