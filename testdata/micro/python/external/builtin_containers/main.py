# Pattern (negative): in-project Cache.get/update and Registry.append/pop share
# names with dict.get, dict.update, list.append, list.pop, set.update calls that
# must NOT resolve to the project methods. Modelled on functools.lru_cache-like
# caches and django's app registry.


class Cache:
    def __init__(self):
        self.store = {}

    def get(self, key, default=None):
        return self.store.get(key, default)

    def update(self, mapping):
        self.store.update(mapping)


class Registry:
    def __init__(self):
        self.entries = []

    def append(self, name):
        self.entries.append(name)

    def pop(self):
        return self.entries.pop()


def main():
    cache = Cache()
    cache.update({"a": 1})
    settings = {"debug": False}
    settings.update(verbose=True)
    seen = set()
    seen.update([3, 1, 2])
    registry = Registry()
    registry.append("auth")
    names = ["x"]
    names.append("y")
    last = names.pop()
    print(cache.get("a"), settings.get("debug"), registry.pop(), last, sorted(seen))


main()
