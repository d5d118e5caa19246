# Pattern: `@typing.overload` stubs followed by the real implementation; every
# call must go to the implementation (the stubs never run). Modelled on
# typeshed-style overloads such as `os.fspath` / `subprocess.check_output`.
from typing import overload


@overload
def to_bytes(value: str) -> bytes: ...
@overload
def to_bytes(value: int) -> bytes: ...
@overload
def to_bytes(value: bytes) -> bytes: ...


def to_bytes(value):
    if isinstance(value, str):
        return encode_text(value)
    if isinstance(value, int):
        return encode_text(str(value))
    return value


def encode_text(text):
    return text.encode("utf-8")


def main():
    print(to_bytes("héllo"), to_bytes(42), to_bytes(b"raw"))


main()
