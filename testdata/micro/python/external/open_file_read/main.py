# Pattern (negative): an in-project Document defines read()/readlines()/close();
# the program also calls read()/close() on a real file from open(), which must
# NOT resolve to the in-project methods. Modelled on configparser.read_file() and
# wrappers that accept either a file object or an in-memory document.
import os


class Document:
    def __init__(self, text):
        self.text = text
        self.closed = False

    def read(self):
        return self.text

    def readlines(self):
        return self.read().splitlines()

    def close(self):
        self.closed = True


def parse_settings(lines):
    return dict(line.split(" = ", 1) for line in lines if " = " in line)


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "settings.ini")
    handle = open(path, encoding="utf-8")
    from_file = parse_settings(handle.read().splitlines())
    handle.close()
    with open(path, encoding="utf-8") as fh:
        first = fh.readlines()[0].strip()
    doc = Document("mode = fast")
    from_doc = parse_settings(doc.readlines())
    doc.close()
    print(from_file, first, from_doc, doc.closed)


main()
