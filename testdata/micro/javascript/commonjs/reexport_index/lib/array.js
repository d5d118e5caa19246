'use strict';

module.exports.range = function range(start, end) {
  const out = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
};
