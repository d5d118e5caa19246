# Pattern: decorators whose inner wrapper closes over the decorated function and
# calls it; a decorator factory with arguments. Modelled on functools.wraps-based
# retry/cache decorators (tenacity, functools.lru_cache).
import functools


def retry(times):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            last = None
            for attempt in range(times):
                try:
                    return func(*args, **kwargs)
                except ConnectionError as exc:
                    last = exc
            raise last
        return wrapper
    return decorator


def memoize(func):
    cache = {}

    def wrapper(key):
        if key not in cache:
            cache[key] = func(key)
        return cache[key]
    return wrapper


attempts = {"n": 0}


@retry(times=3)
def flaky_fetch(url):
    attempts["n"] += 1
    if attempts["n"] < 3:
        raise ConnectionError(url)
    return f"ok {url}"


@memoize
def expensive(key):
    return flaky_fetch(key).upper()


print(expensive("a"), expensive("a"), attempts["n"])
