# Pattern: diamond inheritance `Handler(Cached, Logged)` where `self.lookup()` in
# the common base must resolve by C3 MRO: Cached.lookup is absent, so
# Logged.lookup wins over Base.lookup. Modelled on socketserver's
# ThreadingMixIn/TCPServer-style multiple inheritance.


class Base:
    def __init__(self, name):
        self.name = name

    def lookup(self, key):
        return f"base:{key}"

    def serve(self, key):
        return self.lookup(key)


class Cached(Base):
    def warm(self):
        return f"warm {self.name}"


class Logged(Base):
    def lookup(self, key):
        return f"logged:{key}"


class Handler(Cached, Logged):
    pass


class PlainHandler(Cached):
    pass


def main():
    handler = Handler("h")
    print(handler.warm(), handler.serve("k"), handler.lookup("direct"))
    print(PlainHandler("p").serve("k"))
    print([c.__name__ for c in Handler.__mro__])


main()
