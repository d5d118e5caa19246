// Pattern: calling methods on the result of a call (`make().run()`, `createApp().use(x).listen()`),
// where factories return object literals or closures. Modelled on express(): `express().use(mw).listen(port)`.
function createApp() {
  const middleware = [];
  const app = {
    use(fn) {
      middleware.push(fn);
      return app;
    },
    listen(port) {
      middleware.forEach((fn) => fn({ port }));
      return createServerHandle(port);
    },
  };
  return app;
}

function createServerHandle(port) {
  return {
    address() {
      return { port, family: 'IPv4' };
    },
  };
}

function logger(ctx) {
  console.log('logger sees port', ctx.port);
}

function makeTimer(label) {
  return function stop() {
    return `${label}: done`;
  };
}

console.log(createApp().use(logger).listen(3000).address().port);
console.log(makeTimer('boot')());
