# Pattern: lambdas stored as dict values (an operator table) and called by subscript.
# Modelled on expression evaluators / the `_BINOPS` tables in ast-based safe-eval helpers.

OPERATORS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "neg": lambda a: -a,
}


def evaluate_rpn(tokens):
    stack = []
    for tok in tokens:
        if tok == "neg":
            stack.append(OPERATORS[tok](stack.pop()))
        elif tok in OPERATORS:
            right, left = stack.pop(), stack.pop()
            stack.append(OPERATORS[tok](left, right))
        else:
            stack.append(int(tok))
    return stack[0]


print(evaluate_rpn("3 4 + 2 * 5 - neg".split()))
