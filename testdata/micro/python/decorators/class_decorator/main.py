# Pattern: class decorators -- one adds generated methods to the class, one replaces __init__ via a wrapper.
# Modelled on functools.total_ordering and dataclasses/attrs adding dunder methods.


def add_compare(cls):
    def __lt__(self, other):
        return self.sort_key() < other.sort_key()

    cls.__lt__ = __lt__
    return cls


def track_instances(cls):
    original_init = cls.__init__
    cls.instances = []

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        cls.instances.append(self)

    cls.__init__ = __init__
    return cls


@track_instances
@add_compare
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def sort_key(self):
        return self.parts


vs = [Version("1.10.0"), Version("1.2.3"), Version("0.9")]
print([v.parts for v in sorted(vs)], len(Version.instances))
