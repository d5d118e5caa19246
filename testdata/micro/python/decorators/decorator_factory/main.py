# Pattern: a decorator factory with arguments (`@retry(times=3)`): factory -> decorator -> wrapper -> original.
# Modelled on tenacity/backoff `@retry(...)` and click's `@click.option(...)`.
import functools


class TransientError(Exception):
    pass


def retry(times, exceptions=(TransientError,)):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return func(*args, **kwargs)
                except exceptions:
                    if attempt == times:
                        raise
            return None

        return wrapper

    return decorator


_state = {"calls": 0}


@retry(times=3)
def fetch_flaky(url):
    _state["calls"] += 1
    if _state["calls"] < 3:
        raise TransientError(url)
    return "200 OK " + url


print(fetch_flaky("/health"), _state["calls"])
