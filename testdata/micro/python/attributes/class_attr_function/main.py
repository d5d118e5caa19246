# Pattern: a module-level function assigned as a class attribute after/inside the class body, becoming a method;
# also a staticmethod-wrapped function held as a class attribute. Modelled on `__repr__ = _repr_helper` in attrs/dataclasses.


def _generic_repr(self):
    fields = ", ".join("%s=%r" % (k, v) for k, v in sorted(vars(self).items()))
    return "%s(%s)" % (type(self).__name__, fields)


def _default_clock():
    return 1700000000


class Token:
    __repr__ = _generic_repr
    clock = staticmethod(_default_clock)

    def __init__(self, value):
        self.value = value
        self.issued = self.clock()


def _token_eq(self, other):
    return self.value == other.value


Token.__eq__ = _token_eq
Token.__hash__ = None

a, b = Token("abc"), Token("abc")
print(repr(a), a == b)
