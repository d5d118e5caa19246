# Pattern: builder methods returning `self`, chained across lines, ending in a
# method of a different class. Modelled on SQLAlchemy/Django QuerySet builders.


class Query:
    def __init__(self, table, columns, clauses, limit):
        self.table = table
        self.columns = columns
        self.clauses = clauses
        self.limit = limit

    def to_sql(self):
        sql = f"SELECT {', '.join(self.columns)} FROM {self.table}"
        if self.clauses:
            sql += " WHERE " + " AND ".join(self.clauses)
        if self.limit is not None:
            sql += f" LIMIT {self.limit}"
        return sql


class QueryBuilder:
    def __init__(self, table):
        self._table = table
        self._columns = ["*"]
        self._clauses = []
        self._limit = None

    def select(self, *columns) -> "QueryBuilder":
        self._columns = list(columns)
        return self

    def where(self, clause) -> "QueryBuilder":
        self._clauses.append(clause)
        return self

    def limit(self, n) -> "QueryBuilder":
        self._limit = n
        return self

    def build(self) -> Query:
        return Query(self._table, self._columns, self._clauses, self._limit)


sql = (
    QueryBuilder("users")
    .select("id", "name")
    .where("age > 30")
    .where("active = 1")
    .limit(10)
    .build()
    .to_sql()
)
print(sql)
