// Pattern: IIFEs — a UMD-style `(function (root, factory) {...})(this, function () {...})`
// wrapper and an arrow IIFE `(() => {...})()`. Modelled on UMD bundles such as lodash/underscore.
'use strict';

const globalRoot = {};

(function (root, factory) {
  root.tinyUtil = factory();
})(globalRoot, function () {
  function chunk(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size) {
      out.push(list.slice(i, i + size));
    }
    return out;
  }

  function identity(value) {
    return value;
  }

  return { chunk, identity };
});

const config = (() => {
  const defaults = { size: 2 };
  function readEnvSize() {
    return defaults.size + 1;
  }
  return { size: readEnvSize() };
})();

const chunks = globalRoot.tinyUtil.chunk([1, 2, 3, 4, 5, 6, 7], config.size);
console.log(JSON.stringify(chunks.map(globalRoot.tinyUtil.identity)));
