'use strict';

exports.sum = function sum(list) {
  return list.reduce((a, b) => a + b, 0);
};

exports.clamp = function clamp(n, lo, hi) {
  return Math.min(hi, Math.max(lo, n));
};

exports.increment = (n) => n + 1;
