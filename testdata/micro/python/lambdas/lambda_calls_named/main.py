# Pattern: lambdas that forward to named functions (adapter lambdas), e.g. binding extra arguments.
# Modelled on tkinter `command=lambda: self.on_click(i)` and `atexit.register(lambda: shutil.rmtree(d))`.


def escape_html(text):
    return text.replace("&", "&amp;").replace("<", "&lt;")


def wrap_tag(tag, content):
    return "<%s>%s</%s>" % (tag, content, tag)


class Toolbar:
    def __init__(self):
        self.buttons = {}
        self.log = []

    def on_click(self, label):
        self.log.append(label)

    def add_button(self, label):
        self.buttons[label] = lambda: self.on_click(label)


render_cell = lambda text: wrap_tag("td", escape_html(text))
print(render_cell("a < b & c"))

bar = Toolbar()
bar.add_button("save")
bar.add_button("open")
bar.buttons["open"]()
bar.buttons["save"]()
print(bar.log)
