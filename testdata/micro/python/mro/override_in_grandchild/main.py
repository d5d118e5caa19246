# Pattern: multi-level overriding where a method defined in the grandparent is
# overridden at different levels; calls through `self` and through an explicit
# base `Parent.method(self)` must resolve correctly. Modelled on
# http.server.BaseHTTPRequestHandler -> SimpleHTTPRequestHandler subclasses.


class Formatter:
    def format(self, record):
        return self.format_message(record) + self.suffix()

    def format_message(self, record):
        return str(record)

    def suffix(self):
        return ""


class TimeFormatter(Formatter):
    def format_message(self, record):
        return "[t] " + Formatter.format_message(self, record)


class ColorFormatter(TimeFormatter):
    def suffix(self):
        return " (color)"


class JsonFormatter(Formatter):
    def format(self, record):
        return "{" + super().format(record) + "}"


def render_all(formatters, record):
    return [f.format(record) for f in formatters]


print(render_all([Formatter(), TimeFormatter(), ColorFormatter(), JsonFormatter()], 42))
