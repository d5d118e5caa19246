# Pattern: abc.ABC with @abstractmethod; a function typed against the abstract
# base calls the method, which must reach the concrete overrides. Modelled on
# importlib.abc.Loader / logging.Handler-style plugin bases.
import abc


class Storage(abc.ABC):
    def __init__(self, prefix):
        self.prefix = prefix

    @abc.abstractmethod
    def put(self, key: str, data: bytes) -> str:
        raise NotImplementedError

    def key_for(self, name: str) -> str:
        return f"{self.prefix}/{name}"


class MemoryStorage(Storage):
    def __init__(self, prefix):
        super().__init__(prefix)
        self.blobs = {}

    def put(self, key: str, data: bytes) -> str:
        self.blobs[key] = data
        return f"mem:{key}"


class NullStorage(Storage):
    def put(self, key: str, data: bytes) -> str:
        return f"null:{key}"


def upload(storage: Storage, name: str, data: bytes) -> str:
    return storage.put(storage.key_for(name), data)


def main():
    backends: list[Storage] = [MemoryStorage("bucket"), NullStorage("void")]
    print([upload(b, "a.txt", b"x") for b in backends])


main()
