// Pattern: Promise.all / Promise.allSettled / Promise.race over calls to the program's own async
// functions, including `.map(asyncFn)`. Modelled on build tools that load config, plugins and files in parallel.
async function readConfig() {
  return { outDir: 'dist' };
}

async function loadPlugins() {
  return ['minify', 'banner'];
}

async function compileFile(name) {
  return `${name}.js`;
}

function failingCheck() {
  return Promise.reject(new Error('lint failed'));
}

function quickTimeout() {
  return new Promise((resolve) => setTimeout(resolve, 1, 'timeout'));
}

async function build() {
  const [config, plugins] = await Promise.all([readConfig(), loadPlugins()]);
  const outputs = await Promise.all(['a', 'b', 'c'].map(compileFile));
  const checks = await Promise.allSettled([failingCheck(), compileFile('check')]);
  const winner = await Promise.race([compileFile('race'), quickTimeout()]);
  console.log(config.outDir, plugins.length, outputs.join(','), checks.map((c) => c.status).join(','), winner);
}

build();
