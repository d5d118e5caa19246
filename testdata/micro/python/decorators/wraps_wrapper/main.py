# Pattern: a decorator returning an inner wrapper decorated with functools.wraps; calls reach the wrapper,
# which calls the original. Modelled on functools-based timing/logging decorators (e.g. django's method_decorator users).
import functools

CALLS = []


def log_calls(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        CALLS.append(func.__name__)
        return func(*args, **kwargs)

    return wrapper


@log_calls
def parse_query(qs):
    pairs = {}
    for part in qs.split("&"):
        key, _, value = part.partition("=")
        pairs[key] = value
    return pairs


@log_calls
def build_query(pairs):
    return "&".join(k + "=" + v for k, v in sorted(pairs.items()))


print(build_query(parse_query("b=2&a=1")), parse_query.__name__, CALLS)
