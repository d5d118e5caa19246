// Pattern: object methods under quoted keys ('content-type': function () {}), computed keys ([name]() {})
// and Symbol.iterator, looked up by string at run time. Modelled on body parsers keyed by header and on
// HTTP method tables generated from the `methods` package in express/router.
'use strict';

const PARSE = 'parse';
const methods = ['get', 'post'];

const headerParsers = {
  'content-type': function (value) {
    return value.split(';')[0].trim();
  },
  'content-length': (value) => parseInt(value, 10),
  [PARSE](headers) {
    const out = {};
    for (const name of Object.keys(headers)) {
      out[name] = this[name] ? this[name](headers[name]) : headers[name];
    }
    return out;
  },
};

const route = {
  calls: [],
  [methods[0]](path) {
    this.calls.push('GET ' + path);
    return this;
  },
  [methods[1] + ''](path) {
    this.calls.push('POST ' + path);
    return this;
  },
  *[Symbol.iterator]() {
    yield* this.calls;
  },
};

const parsed = headerParsers[PARSE]({ 'content-type': 'text/html; charset=utf-8', 'content-length': '12', host: 'x' });
route.get('/a').post('/b');
console.log(JSON.stringify(parsed), [...route].join(','));
