// koa-compose style: dispatch(i) calls middleware[i] with a `next` that dispatches i + 1.
function compose(middleware) {
  return function run(context, last) {
    let index = -1;
    function dispatch(i) {
      if (i <= index) {
        return Promise.reject(new Error('next() called multiple times'));
      }
      index = i;
      const fn = i === middleware.length ? last : middleware[i];
      if (!fn) {
        return Promise.resolve();
      }
      return Promise.resolve(fn(context, () => dispatch(i + 1)));
    }
    return dispatch(0);
  };
}

module.exports = compose;
