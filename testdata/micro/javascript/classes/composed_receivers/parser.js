class Lexer {
  tokenize(source) {
    return source.split(/\s+/).filter(Boolean);
  }
}

class Parser {
  constructor() {
    this.lexer = new Lexer();
  }

  parse(source) {
    const tokens = this.lexer.tokenize(source);
    return { type: 'Program', body: tokens.map((t) => this.parseToken(t)) };
  }

  parseToken(token) {
    return /^\d+$/.test(token) ? { type: 'Number', value: Number(token) } : { type: 'Word', value: token };
  }
}

module.exports = { Lexer, Parser };
