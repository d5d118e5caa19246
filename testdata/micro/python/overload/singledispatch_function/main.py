# Pattern: `@functools.singledispatch` generic function with `.register`
# implementations (by annotation and by explicit type); calling the generic
# dispatches to the registered function. Modelled on `json`-like serializers.
import datetime
import decimal
import functools


@functools.singledispatch
def to_json(value):
    return repr(value)


@to_json.register
def _(value: dict):
    items = ", ".join(f'"{k}": {to_json(v)}' for k, v in value.items())
    return "{" + items + "}"


@to_json.register(list)
@to_json.register(tuple)
def encode_sequence(value):
    return "[" + ", ".join(to_json(v) for v in value) + "]"


@to_json.register
def encode_str(value: str):
    return '"' + value + '"'


def encode_decimal(value):
    return str(value)


to_json.register(decimal.Decimal, encode_decimal)


def main():
    payload = {"name": "ada", "tags": ["x", ("y",)], "price": decimal.Decimal("1.50"),
               "when": datetime.date(2024, 1, 2)}
    print(to_json(payload))


main()
