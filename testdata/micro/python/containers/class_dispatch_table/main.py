# Pattern: a dispatch table stored as a class attribute, filled with plain functions defined in the class body,
# looked up by type and called with the instance. Modelled on pprint.PrettyPrinter._dispatch and pickle.Pickler.dispatch.


class Serializer:
    dispatch = {}

    def save_int(self, obj):
        self.out.append("I%d" % obj)

    dispatch[int] = save_int

    def save_str(self, obj):
        self.out.append("S" + obj)

    dispatch[str] = save_str

    def save_list(self, obj):
        self.out.append("[")
        for item in obj:
            self.save(item)
        self.out.append("]")

    dispatch[list] = save_list

    def __init__(self):
        self.out = []

    def save(self, obj):
        f = self.dispatch[type(obj)]
        f(self, obj)


s = Serializer()
s.save([1, "two", [3]])
print("".join(s.out))
