# Pattern (negative): attributes whose values come from the stdlib
# (`self.buf = io.StringIO()`, `self.items = collections.deque()`) are called with
# method names that an in-project class also defines (write/append/close).
# Modelled on logging.StreamHandler / http.client buffering code.
import collections
import io


class Channel:
    def __init__(self):
        self.closed = False
        self.history = []

    def write(self, data):
        self.history.append(data)

    def append(self, data):
        self.write(data)

    def close(self):
        self.closed = True


class BufferedWriter:
    def __init__(self, channel: Channel):
        self.channel = channel
        self.buf = io.StringIO()
        self.pending = collections.deque()

    def queue(self, data):
        self.pending.append(data)
        self.buf.write(data)

    def flush(self):
        while self.pending:
            self.channel.append(self.pending.popleft())
        self.buf.close()
        self.channel.close()


writer = BufferedWriter(Channel())
writer.queue("a")
writer.queue("b")
writer.flush()
print(writer.channel.history, writer.channel.closed)
