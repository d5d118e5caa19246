# Pattern: overloaded methods (`@overload` on methods, incl. __getitem__) where
# the calls go to the final implementation. Modelled on `collections.UserList`
# / sequence types that return an item for int and a new sequence for slices.
from __future__ import annotations

from typing import overload


class Row:
    def __init__(self, values: list[str]):
        self.values = values

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Row: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Row(self.values[index])
        return self.values[index]

    @overload
    def get(self, name: str) -> str | None: ...

    @overload
    def get(self, name: str, default: str) -> str: ...

    def get(self, name, default=None):
        return self.lookup(name) or default

    def lookup(self, name):
        for value in self.values:
            if value.startswith(name + "="):
                return value.split("=", 1)[1]
        return None


def main():
    row = Row(["id=1", "name=ada", "lang=py"])
    tail = row[1:]
    print(row[0], tail.get("name"), tail.get("missing", "n/a"))


main()
