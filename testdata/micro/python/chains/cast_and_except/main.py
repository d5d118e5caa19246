# Pattern: receivers typed via `typing.cast(Parser, x).parse()` and via the
# exception variable in `except ParseError as e: e.describe()`.
# Modelled on configparser/json error handling where errors carry position info.
import typing


class ParseError(Exception):
    def __init__(self, message, position):
        super().__init__(message)
        self.position = position

    def describe(self):
        return f"error at {self.position}: {self.args[0]}"


class IniParser:
    def __init__(self, strict):
        self.strict = strict

    def parse(self, text):
        result = {}
        for index, line in enumerate(text.splitlines()):
            if "=" not in line:
                raise ParseError("missing '='", index)
            key, value = line.split("=", 1)
            result[key.strip()] = value.strip()
        return result


def lookup_parser(registry, name):
    return registry[name]


def main():
    registry: dict[str, object] = {"ini": IniParser(strict=True)}
    parser = typing.cast(IniParser, lookup_parser(registry, "ini"))
    print(parser.parse("a = 1\nb = 2"))
    try:
        typing.cast(IniParser, registry["ini"]).parse("a = 1\nbroken")
    except ParseError as e:
        print(e.describe())


main()
