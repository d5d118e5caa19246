# Pattern: functions bound via tuple unpacking `a, b = f, g` and then swapped `a, b = b, a`.
# Modelled on codecs-style (encoder, decoder) pairs, e.g. `encode, decode = codecs.lookup(...)[:2]`.


def rot13_encode(text):
    return text.translate(str.maketrans("abcdefghijklm", "nopqrstuvwxyz"))


def rot13_decode(text):
    return text.translate(str.maketrans("nopqrstuvwxyz", "abcdefghijklm"))


def roundtrip(text):
    encode, decode = rot13_encode, rot13_decode
    wire = encode(text)
    # Swap the pair: now `encode` refers to rot13_decode and vice versa.
    encode, decode = decode, encode
    back = encode(wire)
    again = decode(back)
    return wire, back, again


print(roundtrip("abc"))
