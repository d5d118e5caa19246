# Pattern: callbacks passed in, stored on an object, and called later from another method.
# Modelled on atexit.register / asyncio Future.add_done_callback / unittest addCleanup.


class Future:
    def __init__(self):
        self._callbacks = []
        self._result = None

    def add_done_callback(self, fn):
        self._callbacks.append(fn)

    def set_result(self, value):
        self._result = value
        self._schedule_callbacks()

    def _schedule_callbacks(self):
        for cb in self._callbacks:
            cb(self)

    def result(self):
        return self._result


def log_result(fut):
    print("done:", fut.result())


def release_connection(fut):
    return fut.result() is not None


fut = Future()
fut.add_done_callback(log_result)
fut.add_done_callback(release_connection)
fut.set_result(42)
