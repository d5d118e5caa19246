// Pattern: receivers stored in fields from `new X()` (this.parser = new Parser(); this.parser.parse()),
// and calling a method directly on a fresh instance (`new X().m()`). Modelled on babel/eslint-style compilers.
const { Parser } = require('./parser');

class Printer {
  print(ast) {
    return ast.body.map((node) => `${node.type}:${node.value}`).join(' ');
  }
}

class Compiler {
  constructor() {
    this.parser = new Parser();
    this.printer = new Printer();
  }

  compile(source) {
    const ast = this.parser.parse(source);
    return this.printer.print(ast);
  }
}

console.log(new Compiler().compile('add 1 2'));
