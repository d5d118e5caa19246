# Pattern: closures sharing `nonlocal` state, returned as a group of callables
# and invoked from outside. Modelled on itertools.count-style counters and
# rate limiters built from closures.


def make_counter(start=0, step=1):
    value = start

    def increment():
        nonlocal value
        value += step
        return value

    def reset():
        nonlocal value
        value = start

    def peek():
        return value

    return increment, reset, peek


def make_limiter(limit):
    increment, reset, peek = make_counter()

    def allow():
        if peek() >= limit:
            return False
        increment()
        return True

    return allow, reset


def main():
    allow, reset = make_limiter(2)
    results = [allow() for _ in range(3)]
    reset()
    results.append(allow())
    print(results)


main()
