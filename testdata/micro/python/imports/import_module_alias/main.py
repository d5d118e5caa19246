# Pattern: `import pkg.mod as alias` then `alias.func()`, and plain
# `import pkg.mod` then `pkg.mod.func()`. Modelled on `import xml.etree.ElementTree as ET`
# and `import os.path` usage.
import storage.backends as sb
import storage.codecs


def save_all(url, items):
    backend = sb.open_backend(url)
    count = 0
    for key, value in items.items():
        count = sb.store(backend, key, storage.codecs.encode(value))
    return backend["scheme"], count


print(save_all("mem://cache", {"a": "abc", "b": "xyz"}))
