# Pattern: functions passed to builtins and called implicitly: map, filter,
# sorted(key=), min/max(key=), functools.partial(...)(). Modelled on how
# stdlib code such as pkgutil/inspect sorts and filters with key functions.
import functools


class Package:
    def __init__(self, name, version, downloads):
        self.name = name
        self.version = version
        self.downloads = downloads


def parse_entry(entry):
    name, version, downloads = entry.split(":")
    return Package(name, tuple(int(p) for p in version.split(".")), int(downloads))


def is_stable(pkg):
    return pkg.version[0] >= 1


def by_name(pkg):
    return pkg.name


def popularity(pkg):
    return pkg.downloads


def format_pkg(prefix, pkg):
    return f"{prefix}{pkg.name}"


def main():
    entries = ["flask:2.3.0:900", "attrs:23.1.0:700", "toy:0.1.0:5", "click:8.1.0:800"]
    packages = list(map(parse_entry, entries))
    stable = list(filter(is_stable, packages))
    ordered = sorted(stable, key=by_name)
    top = max(stable, key=popularity)
    bottom = min(packages, key=popularity)
    fmt = functools.partial(format_pkg, "- ")
    print([fmt(p) for p in ordered], top.name, bottom.name)


main()
