# Pattern (negative): an in-project class defines write()/getvalue(); the program
# also calls io.StringIO().write(), which must NOT resolve to the in-project
# method. Modelled on csv/pprint code writing to either a custom sink or StringIO.
import io


class Report:
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)
        return len(text)

    def getvalue(self):
        return "".join(self.parts)


def emit(sink, rows):
    for row in rows:
        sink.write(f"{row}\n")


def main():
    report = Report()
    report.write("header\n")
    buffer = io.StringIO()
    buffer.write("raw\n")
    io.StringIO("seed").write("x")
    emit(report, [1, 2])
    print(report.getvalue().count("\n"), buffer.getvalue().strip())


main()
