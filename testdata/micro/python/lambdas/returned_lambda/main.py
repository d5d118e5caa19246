# Pattern: functions/methods that return lambdas (closing over arguments); the caller stores and calls them.
# Modelled on operator-style factories and SQLAlchemy/django `default=lambda: ...` column defaults.


def make_multiplier(factor):
    return lambda value: value * factor


def make_default(kind):
    if kind == "list":
        return lambda: []
    return lambda: {"created": True}


class Column:
    def __init__(self, name, default_factory):
        self.name = name
        self.default_factory = default_factory

    def comparator(self):
        return lambda a, b: (a > b) - (a < b)


double = make_multiplier(2)
col = Column("tags", make_default("list"))
meta = Column("meta", make_default("dict"))
cmp = col.comparator()
print(double(21), col.default_factory(), meta.default_factory(), cmp(3, 5))
