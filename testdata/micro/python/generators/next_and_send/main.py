# Pattern: a coroutine-style generator driven with next() and .send(), calling helpers on each received value;
# plus a generator closed with .close() triggering its finally block. Modelled on contextlib / asyncio-era coroutines.


def format_line(prefix, value):
    return "%s %s" % (prefix, value)


def flush_buffer(buf):
    return len(buf)


def line_writer(prefix):
    buf = []
    try:
        received = yield "ready"
        while True:
            buf.append(format_line(prefix, received))
            received = yield len(buf)
    finally:
        flush_buffer(buf)


def averager():
    total, count, avg = 0.0, 0, None
    while True:
        value = yield avg
        total += value
        count += 1
        avg = total / count


w = line_writer(">")
print(next(w), w.send("alpha"), w.send("beta"))
w.close()
avg = averager()
next(avg)
avg.send(10)
print(avg.send(20))
