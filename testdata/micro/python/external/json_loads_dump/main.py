# Pattern (negative): in-project module-level loads()/dumps() functions and a
# Codec class with load/dumps methods; calls to json.loads/json.dumps must NOT be
# attributed to the project definitions. Modelled on projects wrapping json
# (e.g. flask.json) with functions of the same name.
import json


def loads(text):
    return {"custom": text}


def dumps(obj):
    return "custom:" + repr(obj)


class Codec:
    def __init__(self, indent=None):
        self.indent = indent

    def dumps(self, obj):
        return json.dumps(obj, indent=self.indent, sort_keys=True)

    def load(self, text):
        return json.loads(text)


def main():
    codec = Codec()
    data = json.loads('{"b": 1, "a": [1, 2]}')
    text = codec.dumps(data)
    again = codec.load(text)
    print(text, again == data, loads("x"), dumps(1), json.dumps(None))


main()
