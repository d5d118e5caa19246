# Pattern: generator methods chained into a pipeline (each stage consumes the previous), pulled by a final consumer.
# Modelled on logging-processing / ETL pipelines and itertools-style stream helpers in e.g. `pip`'s log parsing.


class LogPipeline:
    def __init__(self, lines):
        self.lines = lines

    def parse(self):
        for line in self.lines:
            level, _, message = line.partition(" ")
            yield self.make_record(level, message)

    def make_record(self, level, message):
        return {"level": level, "message": message}

    def only(self, records, level):
        for rec in records:
            if rec["level"] == level:
                yield rec

    def messages(self, level):
        return (rec["message"] for rec in self.only(self.parse(), level))


pipeline = LogPipeline(["ERROR disk full", "INFO started", "ERROR timeout"])
print(list(pipeline.messages("ERROR")))
