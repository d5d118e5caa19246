// Pattern: a method whose name equals a top-level function; `format(...)` inside the method calls the
// global function, while `this.format(...)` calls the method. Modelled on debug's `createDebug.formatArgs`/`format`.
function format(template, args) {
  let i = 0;
  return template.replace(/%s/g, () => String(args[i++]));
}

function log(line) {
  console.log(line);
}

class Debug {
  constructor(namespace) {
    this.namespace = namespace;
  }

  format(template, ...args) {
    return `${this.namespace} ${format(template, args)}`;
  }

  log(template, ...args) {
    log(this.format(template, ...args));
  }
}

new Debug('http').log('%s %s', 'GET', '/index');
log(format('plain %s', ['call']));
