# Pattern: callbacks kept in a tuple (indexed and iterated) and in a set (iterated).
# Modelled on signal receivers / weakref finalizers (sets) and codecs' CodecInfo tuples.


def on_connect(conn):
    conn.append("connected")


def on_disconnect(conn):
    conn.append("disconnected")


def audit(conn):
    conn.append("audited")


def encode_utf8(s):
    return s.encode("utf-8")


def decode_utf8(b):
    return b.decode("utf-8")


CODEC = (encode_utf8, decode_utf8)
receivers = set()
receivers.add(on_connect)
receivers.add(on_disconnect)

conn = []
for receiver in sorted(receivers, key=id):
    receiver(conn)
for hook in (audit,):
    hook(conn)
data = CODEC[0]("h\u00e9")
print(sorted(conn), CODEC[1](data))
