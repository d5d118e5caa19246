'use strict';

exports = module.exports = createApplication;

function createApplication() {
  const app = {
    routers: [],
    mount(router) {
      this.routers.push(router);
    },
    run(path) {
      for (const r of this.routers) {
        const handler = r.lookup(path);
        if (handler) return handler();
      }
      return 'not found';
    },
  };
  return app;
}

exports.Router = function Router() {
  const routes = {};
  return {
    get(path, fn) {
      routes[path] = fn;
    },
    lookup(path) {
      return routes[path];
    },
  };
};

exports.version = '0.0.1';
