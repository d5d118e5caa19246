# Pattern: a function-local `import mod as render` / `from mod import render`
# shadows a module-level function of the same name only inside that function.
# Modelled on optional-dependency fallbacks (`try: import simplejson as json`).


def render(data):
    return f"plain:{sorted(data)}"


def emit_json(data):
    from jsonfmt import render
    return render(data)


def emit_pipe(data):
    import formatters as render
    return render.render(data)


def emit_plain(data):
    return render(data)


record = {"b": 2, "a": 1}
print(emit_json(record))
print(emit_pipe(record))
print(emit_plain(record))
