// Pattern: fluent builder API where every method returns `this`, ending in a call that fires a callback.
// Modelled on commander: program.command('x').option(...).description(...).action(fn); program.parse(argv).
class Command {
  constructor(name) {
    this.name = name;
    this.options = [];
    this.subcommands = [];
    this.handler = null;
  }

  command(name) {
    const sub = new Command(name);
    this.subcommands.push(sub);
    return sub;
  }

  option(flag, description) {
    this.options.push({ flag, description });
    return this;
  }

  description(text) {
    this.summary = text;
    return this;
  }

  action(fn) {
    this.handler = fn;
    return this;
  }

  parse(argv) {
    const [name, ...rest] = argv;
    const sub = this.subcommands.find((c) => c.name === name);
    sub.handler(rest, sub.options.length);
    return this;
  }
}

function runServe(args, optionCount) {
  console.log('serve', args.join(' '), 'with', optionCount, 'options');
}

const program = new Command('app');
program.command('serve').option('-p, --port <n>', 'port').option('--open', 'open browser').description('start server').action(runServe);
program.parse(['serve', '--port', '8080']);
