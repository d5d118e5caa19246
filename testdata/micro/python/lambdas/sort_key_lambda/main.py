# Pattern: lambdas passed as callbacks to builtins (sorted key=, max key=, filter) and to a user higher-order function.
# Modelled on `sorted(entries, key=lambda e: e.mtime)` and pip/setuptools `_find_all(pred=lambda ...)`.


class Entry:
    def __init__(self, name, size):
        self.name, self.size = name, size


def find_all(entries, predicate):
    found = []
    for e in entries:
        if predicate(e):
            found.append(e)
    return found


entries = [Entry("setup.py", 900), Entry("README", 120), Entry("lib.py", 4000)]
by_size = sorted(entries, key=lambda e: e.size)
largest = max(entries, key=lambda e: e.size)
python_files = find_all(entries, lambda e: e.name.endswith(".py"))
short = list(filter(lambda e: len(e.name) < 7, entries))
print([e.name for e in by_size], largest.name, [e.name for e in python_files], [e.name for e in short])
