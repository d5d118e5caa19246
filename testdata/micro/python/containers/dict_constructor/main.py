# Pattern: a dict built with `dict(a=f, ...)` and updated with `.update(...)`/`setdefault`, then looked up and called.
# Modelled on jinja2/django template filter registries: `filters = dict(upper=do_upper, ...)`.


def do_upper(s):
    return s.upper()


def do_title(s):
    return s.title()


def do_truncate(s, length=8):
    return s if len(s) <= length else s[: length - 3] + "..."


def do_reverse(s):
    return s[::-1]


DEFAULT_FILTERS = dict(upper=do_upper, title=do_title)
DEFAULT_FILTERS.update(truncate=do_truncate)
DEFAULT_FILTERS.setdefault("reverse", do_reverse)


def apply_filters(value, names):
    for name in names:
        value = DEFAULT_FILTERS[name](value)
    return value


print(apply_filters("hello wide world", ["title", "truncate", "reverse", "upper"]))
