// Pattern: a parameter named `next` shadows a top-level function `next`; `next(err)` inside the
// middleware must call the argument actually passed, never the top-level one. Modelled on connect/express.
function next(err) {
  console.log('top-level next (final handler)', err ? err.message : 'ok');
}

function checkAuth(req, next) {
  if (!req.user) {
    return next(new Error('unauthorized'));
  }
  next();
}

function proceedToRoute(err) {
  console.log('route continuation', err ? err.message : 'ok');
}

function reportFailure(err) {
  console.log('error continuation', err.message);
}

checkAuth({ user: 'ada' }, proceedToRoute);
checkAuth({}, reportFailure);
next();
