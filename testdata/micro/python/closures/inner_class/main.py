# Pattern: classes defined inside a function (closing over its arguments) and
# nested classes inside a class; their methods are called. Modelled on
# unittest.mock / namedtuple-style class factories and django's `class Meta`.


def make_model(table):
    class Model:
        def __init__(self, **fields):
            self.fields = fields

        def describe(self):
            return f"{table}({self.render_fields()})"

        def render_fields(self):
            return ", ".join(f"{k}={v}" for k, v in sorted(self.fields.items()))

    return Model


class Serializer:
    class Meta:
        fields = ("id", "name")

        @classmethod
        def selected(cls, data):
            return {k: data[k] for k in cls.fields}

    def __init__(self, data):
        self.data = data

    def to_representation(self):
        return self.Meta.selected(self.data)


def main():
    User = make_model("users")
    print(User(id=1, name="ada").describe())
    print(Serializer({"id": 1, "name": "ada", "secret": "x"}).to_representation())


main()
