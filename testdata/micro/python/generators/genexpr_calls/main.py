# Pattern: generator expressions (and consumers like sum/any/join) that call user functions per element.
# Modelled on `any(p.match(name) for p in patterns)` in fnmatch/gitignore matchers and `sum(f(x) for x in xs)`.


def normalize(name):
    return name.lower().lstrip("./")


def matches(pattern, name):
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def file_size(name):
    return len(name) * 10


def is_ignored(name, patterns):
    clean = normalize(name)
    return any(matches(p, clean) for p in patterns)


patterns = ["build*", "notes.txt"]
files = ["./src/app.py", "Build/out.o", "README"]
kept = (f for f in files if not is_ignored(f, patterns))
print(sum(file_size(f) for f in kept))
