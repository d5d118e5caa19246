// Pattern: `module.exports = function createApplication() {}` called by the requirer, with extra
// functions hung off the exported function (`exports.Router = ...`). Modelled on express's lib/express.js.
'use strict';

const express = require('./express');

const app = express();
const router = express.Router();
router.get('/health', function health() {
  return 'ok';
});
app.mount(router);
console.log(app.run('/health'), express.version);
