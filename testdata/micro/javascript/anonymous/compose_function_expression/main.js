// Pattern: named function expressions assigned to consts and returned from factories,
// recursively calling themselves by their inner name. Modelled on koa-compose middleware chains.
'use strict';

const compose = function compose(middleware) {
  return function composed(ctx, next) {
    let index = -1;
    (function dispatch(i) {
      if (i <= index) throw new Error('next() called multiple times');
      index = i;
      let fn = middleware[i];
      if (i === middleware.length) fn = next;
      if (!fn) return;
      fn(ctx, dispatch.bind(null, i + 1));
    })(0);
    return ctx;
  };
};

const logger = function logger(ctx, next) {
  ctx.log.push('> ' + ctx.path);
  next();
  ctx.log.push('< ' + ctx.status);
};

const router = function (ctx, next) {
  ctx.status = ctx.path === '/' ? 200 : 404;
  next();
};

const notFound = (ctx) => {
  ctx.log.push('final ' + ctx.status);
};

const handler = compose([logger, router]);
const ctx = handler({ path: '/', status: 0, log: [] }, notFound);
console.log(ctx.log.join(' | '));
