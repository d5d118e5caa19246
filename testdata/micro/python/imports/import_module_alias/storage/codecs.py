def encode(value):
    return value[::-1]
