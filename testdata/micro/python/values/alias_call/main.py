# Pattern: a function bound to a local name and called through the alias (`a = f; a()`).
# Modelled on json/encoder.py caching `_encoder = encode_basestring` then calling `_encoder(o)`.


def encode_basestring(s):
    return '"' + s.replace('"', '\\"') + '"'


def encode_basestring_ascii(s):
    return encode_basestring(s.encode("ascii", "backslashreplace").decode("ascii"))


def iterencode(values, ensure_ascii):
    if ensure_ascii:
        _encoder = encode_basestring_ascii
    else:
        _encoder = encode_basestring
    out = []
    for v in values:
        out.append(_encoder(v))
    return out


def main():
    plain = iterencode(["a", 'b"c'], ensure_ascii=False)
    ascii_only = iterencode(["d\u00e9"], ensure_ascii=True)
    print(plain + ascii_only)


main()
