"""A module whose attributes are called by other modules and can be replaced at runtime."""


def default_formatter(record):
    return "[%s] %s" % (record["level"], record["msg"])


formatter = default_formatter


def emit(record):
    # Looks up the *module attribute* at call time, so patches are honoured.
    return formatter(record)
