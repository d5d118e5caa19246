# Pattern: callbacks passed by keyword (`g(cb=f)`) including the `key=` / `default=` idioms.
# Modelled on json.dumps(obj, default=fn) and sorted(items, key=fn).


def serialize(obj, *, default=None, key=None):
    if isinstance(obj, dict):
        items = sorted(obj.items(), key=key) if key else list(obj.items())
        parts = []
        for k, v in items:
            parts.append(k + ": " + serialize(v, default=default))
        return "{" + ", ".join(parts) + "}"
    if isinstance(obj, (int, str)):
        return repr(obj)
    return serialize(default(obj), default=default)


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def encode_point(obj):
    return {"x": obj.x, "y": obj.y}


def by_key_name(item):
    return item[0]


doc = {"name": "origin", "at": Point(0, 1)}
print(serialize(doc, default=encode_point, key=by_key_name))
