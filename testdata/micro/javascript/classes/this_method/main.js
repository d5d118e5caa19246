// Pattern: methods calling sibling methods through `this.m()`.
// Modelled on express's Router, where handle() calls this.match() and this.dispatch().
class Router {
  constructor() {
    this.routes = [];
  }

  get(path, handler) {
    this.addRoute('GET', path, handler);
    return this;
  }

  addRoute(method, path, handler) {
    this.routes.push({ method, path, handler });
  }

  match(method, path) {
    return this.routes.find((r) => r.method === method && r.path === path);
  }

  handle(req) {
    const route = this.match(req.method, req.url);
    if (!route) {
      return this.notFound(req);
    }
    return this.dispatch(route, req);
  }

  dispatch(route, req) {
    return route.handler(req);
  }

  notFound(req) {
    return `404 ${req.url}`;
  }
}

function showUser(req) {
  return `user page for ${req.url}`;
}

const router = new Router();
router.get('/user', showUser);
console.log(router.handle({ method: 'GET', url: '/user' }));
console.log(router.handle({ method: 'GET', url: '/missing' }));
