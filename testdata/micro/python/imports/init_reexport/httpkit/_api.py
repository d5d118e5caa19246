from ._client import Client


def get(url):
    base, _, path = url.partition("/")
    return Client(base).get("/" + path)
