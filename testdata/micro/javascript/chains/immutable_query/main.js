// Pattern: immutable chaining where each method returns a NEW instance (not `this`), and the terminal
// call compiles the accumulated state. Modelled on knex/sequelize-like query builders.
class Query {
  constructor(table, clauses = []) {
    this.table = table;
    this.clauses = clauses;
  }

  with(clause) {
    return new Query(this.table, [...this.clauses, clause]);
  }

  where(column, value) {
    return this.with({ kind: 'where', text: `${column} = ${quote(value)}` });
  }

  orderBy(column) {
    return this.with({ kind: 'order', text: `ORDER BY ${column}` });
  }

  textsOf(kind) {
    return this.clauses
      .filter((c) => c.kind === kind)
      .map((c) => c.text);
  }

  toSQL() {
    const wheres = this.textsOf('where');
    const orders = this.textsOf('order');
    return [`SELECT * FROM ${this.table}`, wheres.length ? `WHERE ${wheres.join(' AND ')}` : '', ...orders].filter(Boolean).join(' ');
  }
}

function quote(value) {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function from(table) {
  return new Query(table);
}

console.log(from('users').where('name', 'ada').where('age', 36).orderBy('id').toSQL());
