RATE = 0.2


def apply_tax(amount):
    return round(amount * (1 + RATE), 2)
