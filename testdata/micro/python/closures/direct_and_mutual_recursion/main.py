# Pattern: direct recursion (tree depth, nested dict flatten) and mutual
# recursion between two functions (even/odd; expression/term parser).
# Modelled on json encoders and recursive-descent parsers.


def flatten(mapping, prefix=""):
    items = {}
    for key, value in mapping.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            items.update(flatten(value, name))
        else:
            items[name] = value
    return items


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def parse_expr(tokens):
    value = parse_term(tokens)
    while tokens and tokens[0] == "+":
        tokens.pop(0)
        value += parse_term(tokens)
    return value


def parse_term(tokens):
    tok = tokens.pop(0)
    if tok == "(":
        value = parse_expr(tokens)
        tokens.pop(0)
        return value
    return int(tok)


print(flatten({"a": {"b": 1, "c": {"d": 2}}, "e": 3}))
print(is_even(6), is_odd(3))
print(parse_expr("1 + ( 2 + 3 ) + 4".split()))
