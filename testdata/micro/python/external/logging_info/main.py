# Pattern (negative): an in-project Reporter has info()/warning()/debug(); calls on
# `logging.getLogger(__name__)` objects with the same names must NOT resolve to
# the project methods. Modelled on libraries keeping a module-level `logger`.
import logging

logger = logging.getLogger(__name__)


class Reporter:
    def __init__(self, prefix):
        self.prefix = prefix
        self.lines = []

    def info(self, msg):
        self.lines.append(f"{self.prefix} INFO {msg}")

    def warning(self, msg):
        self.lines.append(f"{self.prefix} WARN {msg}")


class Job:
    def __init__(self, reporter: Reporter):
        self.reporter = reporter
        self.log = logging.getLogger("job")

    def run(self):
        self.log.info("starting")
        self.reporter.info("started")
        logger.warning("suppressed by logging.disable")
        self.reporter.warning("done")
        return self.reporter.lines


logging.disable(logging.CRITICAL)
print(Job(Reporter("job1")).run())
