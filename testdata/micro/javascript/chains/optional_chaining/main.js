// Pattern: optional chaining on calls: `obj?.m()`, `opts.onEvent?.(x)`, `a?.b?.c()`; some hooks are
// absent so their call short-circuits. Modelled on plugin hooks in vite/rollup (`plugin.transform?.(code)`).
function minifyTransform(code) {
  return code.replace(/\s+/g, ' ');
}

function bannerTransform(code) {
  return `/* banner */ ${code}`;
}

function reportDone(name) {
  console.log('plugin done:', name);
}

const plugins = [
  { name: 'minify', transform: minifyTransform },
  { name: 'banner', transform: bannerTransform, hooks: { buildEnd: reportDone } },
  { name: 'noop' },
];

function runPlugins(code, list) {
  let out = code;
  for (const plugin of list) {
    out = plugin.transform?.(out) ?? out;
    plugin.hooks?.buildEnd?.(plugin.name);
  }
  return out;
}

const cache = null;
console.log(runPlugins('let  x =\n 1;', plugins));
console.log(cache?.get('key') ?? 'cache miss');
