# Pattern: method called directly on a constructor result, `Pipeline(src).run()`,
# and on a factory function result. Modelled on itertools-style processing pipelines
# and `argparse.ArgumentParser(...).parse_args()` usage.


class Source:
    def __init__(self, lines):
        self.lines = lines

    def records(self):
        return [line.strip() for line in self.lines if line.strip()]


class Pipeline:
    def __init__(self, source):
        self.source = source
        self.steps = []

    def add_step(self, step):
        self.steps.append(step)
        return self

    def run(self):
        rows = self.source.records()
        for step in self.steps:
            rows = [step(r) for r in rows]
        return rows


def upper(value):
    return value.upper()


def make_source():
    return Source(["alpha ", "", " beta"])


def main():
    out = Pipeline(make_source()).add_step(upper).run()
    print(",".join(out))


main()
