// Pattern: pre-ES6 constructor functions with prototype methods, inheritance via util.inherits
// and via Object.create(Base.prototype) plus Base.call(this). Modelled on old express/connect/request code.
const util = require('util');
const Emitter = require('./base');

function Request(url) {
  Emitter.call(this);
  this.url = url;
}
util.inherits(Request, Emitter);

Request.prototype.end = function () {
  this.emit('response', { url: this.url, status: 200 });
};

function CachedRequest(url) {
  Request.call(this, url);
  this.hits = 0;
}
CachedRequest.prototype = Object.create(Request.prototype);
CachedRequest.prototype.constructor = CachedRequest;

CachedRequest.prototype.end = function () {
  this.hits += 1;
  Request.prototype.end.call(this);
};

function onResponse(res) {
  console.log('response', res.url, res.status);
}

const req = new CachedRequest('/api');
req.on('response', onResponse).end();
console.log('hits', req.hits);
