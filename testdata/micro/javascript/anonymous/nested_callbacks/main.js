// Pattern: own higher-order functions taking callbacks, with nested callbacks calling named functions.
// Modelled on the `async` library (eachSeries / waterfall) with node-style (err, result) callbacks.
'use strict';

function eachSeries(items, iteratee, done) {
  let index = 0;
  function next(err) {
    if (err || index >= items.length) {
      return done(err);
    }
    const item = items[index++];
    iteratee(item, next);
  }
  next();
}

function waterfall(tasks, done) {
  eachSeries(tasks, (task, cb) => {
    task(cb);
  }, done);
}

function loadRecord(id, cb) {
  cb(null, { id, size: id * 10 });
}

function saveRecord(record, cb) {
  saved.push(record.id + '=' + record.size);
  cb(null);
}

const saved = [];

eachSeries([1, 2, 3], (id, cb) => {
  loadRecord(id, (err, record) => {
    if (err) return cb(err);
    saveRecord(record, cb);
  });
}, function finished(err) {
  waterfall([
    function first(cb) { saved.push('first'); cb(); },
    (cb) => { saved.push('second'); cb(); },
  ], () => {
    console.log(err || null, saved.join(','));
  });
});
