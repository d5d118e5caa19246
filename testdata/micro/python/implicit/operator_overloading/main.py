# Pattern: operators and builtins dispatching to dunder methods: `a + b` -> __add__,
# `a[k]` -> __getitem__, `len(x)` -> __len__, `str(x)` -> __str__, `x == y` -> __eq__,
# `k in x` -> __contains__. Modelled on decimal.Decimal / collections.Counter.


class Money:
    def __init__(self, cents, currency="EUR"):
        self.cents = cents
        self.currency = currency

    def __add__(self, other):
        return Money(self.cents + other.cents, self.currency)

    def __eq__(self, other):
        return (self.cents, self.currency) == (other.cents, other.currency)

    def __str__(self):
        return f"{self.cents // 100}.{self.cents % 100:02d} {self.currency}"


class Ledger:
    def __init__(self):
        self.entries = {}

    def __setitem__(self, key, amount):
        self.entries[key] = amount

    def __getitem__(self, key):
        return self.entries[key]

    def __len__(self):
        return len(self.entries)

    def __contains__(self, key):
        return key in self.entries


def main():
    ledger = Ledger()
    ledger["rent"] = Money(80000)
    ledger["food"] = Money(12550)
    total = ledger["rent"] + ledger["food"]
    same = total == Money(92550)
    print(str(total), len(ledger), same, "rent" in ledger)


main()
