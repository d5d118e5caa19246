// Pattern: `Object.assign(proto, { m() {} })` mixins and prototype objects created with Object.create,
// then methods reached through instances and `this`. Modelled on express's lib/response.js / lib/express.js
// (`var res = Object.create(http.ServerResponse.prototype)` plus mixin of EventEmitter into app).
'use strict';

const baseResponse = {
  write(chunk) {
    this.body += chunk;
  },
};

const res = Object.create(baseResponse);

Object.assign(res, {
  status(code) {
    this.statusCode = code;
    return this;
  },
  send(body) {
    this.write(typeof body === 'string' ? body : this.stringify(body));
    return this;
  },
  json(obj) {
    this.set('content-type', 'application/json');
    return this.send(obj);
  },
});

const headerMixin = {
  set: function set(field, value) {
    this.headers[field] = value;
    return this;
  },
  stringify: (obj) => JSON.stringify(obj),
};

Object.assign(res, headerMixin);

function createResponse() {
  const r = Object.create(res);
  r.body = '';
  r.headers = {};
  r.statusCode = 200;
  return r;
}

const response = createResponse();
response.status(201).json({ id: 7 });
console.log(response.statusCode, response.headers['content-type'], response.body);
