// Pattern: middleware stack: `use(fn)` pushes functions, a composed dispatcher walks the array calling each
// with `next`. Modelled on koa (app.use + koa-compose) with onion-style await next().
const compose = require('./compose');

class App {
  constructor() {
    this.middleware = [];
  }

  use(fn) {
    this.middleware.push(fn);
    return this;
  }

  handle(ctx) {
    return compose(this.middleware)(ctx, respond);
  }
}

async function timing(ctx, next) {
  ctx.log.push('timing:start');
  await next();
  ctx.log.push('timing:end');
}

async function errorBoundary(ctx, next) {
  try {
    await next();
  } catch (err) {
    ctx.body = `error: ${err.message}`;
  }
}

function router(ctx, next) {
  ctx.log.push(`route ${ctx.path}`);
  return next();
}

function respond(ctx) {
  ctx.body = ctx.body || `hello from ${ctx.path}`;
}

const app = new App().use(timing).use(errorBoundary).use(router);
const ctx = { path: '/home', log: [] };
app.handle(ctx).then(() => console.log(ctx.body, '|', ctx.log.join(', ')));
