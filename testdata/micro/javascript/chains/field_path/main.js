// Pattern: calls through chains of fields `obj.a.b.c()`, with the objects wired together in constructors.
// Modelled on koa's `app.context.request.get(...)` and mongoose's `model.db.connection.close()`.
class Connection {
  query(sql) {
    return `rows for "${sql}"`;
  }
}

class Database {
  constructor() {
    this.connection = new Connection();
  }
}

class Model {
  constructor(name, db) {
    this.name = name;
    this.db = db;
  }
}

const app = {
  models: {
    user: new Model('user', new Database()),
  },
  services: {
    mailer: {
      transport: {
        send(to) {
          return `mail sent to ${to}`;
        },
      },
    },
  },
};

console.log(app.models.user.db.connection.query('select * from users'));
console.log(app.services.mailer.transport.send('ada@example.com'));
