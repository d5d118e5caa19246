'use strict';

function pipe(...fns) {
  return function piped(input) {
    return fns.reduce((acc, fn) => fn(acc), input);
  };
}

pipe.double = function double(n) {
  return n * 2;
};

module.exports = pipe;
