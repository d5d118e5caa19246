# Pattern: lambdas assigned to names (module-level and local) and called through those names.
# Modelled on small helpers like `_is_hex = lambda c: c in string.hexdigits` found throughout the stdlib.

is_hex_digit = lambda ch: ch in "0123456789abcdefABCDEF"
strip_prefix = lambda s, p: s[len(p):] if s.startswith(p) else s


def parse_color(text):
    body = strip_prefix(text, "#")
    clamp = lambda v: max(0, min(255, v))
    for ch in body:
        if not is_hex_digit(ch):
            raise ValueError(text)
    r, g, b = int(body[0:2], 16), int(body[2:4], 16), int(body[4:6], 16)
    return clamp(r), clamp(g), clamp(b)


print(parse_color("#ff8000"))
