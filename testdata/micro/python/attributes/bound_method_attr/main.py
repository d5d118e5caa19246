# Pattern: an instance attribute assigned a bound method of another object (or of itself), then called through it.
# Modelled on io wrappers (`self.write = self._raw.write`) and logging.Handler `self.emit` delegation.


class RawFile:
    def __init__(self):
        self.chunks = []

    def write(self, data):
        self.chunks.append(data)
        return len(data)

    def flush(self):
        return len(self.chunks)


class BufferedWriter:
    def __init__(self, raw):
        self.raw = raw
        # Fast-path aliases to bound methods of the underlying stream.
        self.write = raw.write
        self.flush = raw.flush
        self.close = self._close

    def _close(self):
        return "closed after %d chunks" % self.flush()


raw = RawFile()
out = BufferedWriter(raw)
out.write("header\n")
out.write("body\n")
print(out.close())
