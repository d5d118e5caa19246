// Pattern: named function expressions assigned to properties of a plain object (`app.use = function use(){}`)
// and called through `this`. Modelled on express's lib/application.js.
'use strict';

const app = {};

app.init = function init() {
  this.stack = [];
  this.settings = {};
  this.set('env', 'test');
};

app.set = function set(setting, val) {
  this.settings[setting] = val;
  return this;
};

app.use = function use(fn) {
  this.stack.push(fn);
  return this;
};

app.handle = function handle(req) {
  for (const layer of this.stack) {
    layer.call(this, req);
  }
  return req;
};

function poweredBy(req) {
  req.headers['x-powered-by'] = 'micro';
}

app.init();
app.use(poweredBy).use(function envHeader(req) {
  req.headers['x-env'] = this.settings.env;
});
const req = app.handle({ headers: {} });
console.log(JSON.stringify(req.headers));
