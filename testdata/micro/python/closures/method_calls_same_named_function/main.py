# Pattern: a method calls a module-level function that has the same name as the
# method (`def render(self): return render(...)`); the bare name resolves to the
# module function, not the method. Modelled on thin OO wrappers over functional
# APIs (e.g. `shlex.split` vs `shlex.shlex.split`, `json.dumps` vs encoder methods).


def render(template, context):
    return template.format(**context)


def escape(text):
    return text.replace("<", "&lt;").replace(">", "&gt;")


class Template:
    def __init__(self, source):
        self.source = source

    def render(self, **context):
        safe = {k: self.escape(v) for k, v in context.items()}
        return render(self.source, safe)

    def escape(self, value):
        return escape(str(value))


print(Template("<p>{name}</p>").render(name="<b>ada</b>"))
