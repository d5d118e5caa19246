'use strict';

function unescape(s) {
  return decodeURIComponent(s);
}

exports.escape = function escape(s) {
  return encodeURIComponent(s);
};

exports.parse = function parse(str) {
  const out = {};
  for (const pair of str.split('&')) {
    const [k, v] = pair.split('=');
    out[unescape(k)] = unescape(v);
  }
  return out;
};

module.exports.stringify = (obj) => {
  return Object.keys(obj)
    .map((k) => exports.escape(k) + '=' + exports.escape(String(obj[k])))
    .join('&');
};
