// Pattern: replacing a prototype with an object literal of shorthand methods (`X.prototype = { m() {} }`)
// and calls through `this`. Modelled on older router/route libraries (e.g. path matching in express 3 / director).
'use strict';

function Router(options) {
  this.routes = [];
  this.caseSensitive = Boolean(options && options.caseSensitive);
}

Router.prototype = {
  constructor: Router,

  add(method, path, handler) {
    this.routes.push({ method, path: this.normalize(path), handler });
    return this;
  },

  normalize(path) {
    return this.caseSensitive ? path : path.toLowerCase();
  },

  match(method, path) {
    const wanted = this.normalize(path);
    return this.routes.find((r) => r.method === method && r.path === wanted);
  },

  dispatch: function (method, path) {
    const route = this.match(method, path);
    return route ? route.handler(path) : 'no route';
  },
};

function listUsers(path) {
  return 'users at ' + path;
}

const router = new Router({ caseSensitive: false });
router.add('GET', '/Users', listUsers);
console.log(router.dispatch('GET', '/USERS'));
console.log(router.dispatch('POST', '/users'));
