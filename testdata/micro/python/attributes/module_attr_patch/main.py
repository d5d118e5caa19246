# Pattern: module attributes -- `import mod; mod.f()` and monkeypatching `mod.attr = f` so later calls go to f.
# Modelled on logging's setLogRecordFactory / patching `socket.getaddrinfo` in tests.
import hooks


def json_formatter(record):
    return '{"level": "%s", "msg": "%s"}' % (record["level"], record["msg"])


record = {"level": "INFO", "msg": "started"}
print(hooks.emit(record))
print(hooks.formatter(record))
hooks.formatter = json_formatter
print(hooks.emit(record))
