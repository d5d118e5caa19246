# Pattern: `for x in obj` implicitly calls obj.__iter__ and the iterator's __next__;
# `list(obj)` and unpacking do too. Modelled on csv.reader / io line iterators.


class LineReader:
    def __init__(self, reader):
        self.reader = reader
        self.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= len(self.reader.lines):
            raise StopIteration
        line = self.reader.lines[self.index]
        self.index += 1
        return self.reader.split(line)


class CsvReader:
    def __init__(self, text):
        self.lines = text.splitlines()

    def split(self, line):
        return line.split(",")

    def __iter__(self):
        return LineReader(self)


def main():
    data = CsvReader("a,b\nc,d\ne,f")
    for row in data:
        print("row", row)
    first, *rest = data
    print(first, len(rest), list(data)[-1])


main()
