# Pattern: a method returns a function which is called immediately: `obj.factory()()` / `obj.factory()(x)`.
# Modelled on sqlite3's `conn.cursor().execute` style and logging's `Logger.makeRecord` factory hooks.


def _quote_identifier(name):
    return '"' + name + '"'


def _quote_literal(value):
    return "'" + str(value).replace("'", "''") + "'"


class Dialect:
    def __init__(self, name):
        self.name = name

    def identifier_quoter(self):
        return _quote_identifier

    def literal_quoter(self):
        prefix = "E" if self.name == "postgres" else ""

        def quote(value):
            return prefix + _quote_literal(value)

        return quote


def build_insert(dialect, table, value):
    return "INSERT INTO %s VALUES (%s)" % (
        dialect.identifier_quoter()(table),
        dialect.literal_quoter()(value),
    )


print(build_insert(Dialect("postgres"), "users", "O'Brien"))
