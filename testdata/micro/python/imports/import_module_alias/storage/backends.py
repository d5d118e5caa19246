def open_backend(url):
    scheme, _, path = url.partition("://")
    return {"scheme": scheme, "path": path, "keys": {}}


def store(backend, key, value):
    backend["keys"][key] = value
    return len(backend["keys"])
