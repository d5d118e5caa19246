# Pattern: a factory returns a closure defined in a nested def; the caller stores and calls it (`b = make(); b()`).
# Modelled on functools.partial-like helpers and operator.itemgetter / attrgetter factories.


def make_getter(field, default=None):
    def getter(record):
        return record.get(field, default)

    return getter


def make_validator(max_len):
    def too_long(value):
        return len(value) > max_len

    def validate(value):
        if too_long(value):
            return "too long"
        return "ok"

    return validate


get_name = make_getter("name", "anonymous")
check = make_validator(5)
for rec in [{"name": "alice"}, {}]:
    name = get_name(rec)
    print(name, check(name))
