# Pattern: registration decorators store the function in a registry dict (returning it unchanged);
# dispatch later calls it from the registry. Modelled on Flask's `@app.route` and pluggy/click `@group.command()`.


class Router:
    def __init__(self):
        self.view_functions = {}

    def route(self, rule):
        def decorator(f):
            self.view_functions[rule] = f
            return f

        return decorator

    def dispatch(self, path):
        view = self.view_functions.get(path)
        if view is None:
            return "404"
        return view()


app = Router()

EVENT_HANDLERS = {}


def on(event):
    def register(fn):
        EVENT_HANDLERS.setdefault(event, []).append(fn)
        return fn

    return register


@app.route("/")
def index():
    return "index page"


@app.route("/about")
def about():
    return "about page"


@on("startup")
def open_db():
    return "db opened"


for handler in EVENT_HANDLERS["startup"]:
    handler()
print(app.dispatch("/"), app.dispatch("/about"), app.dispatch("/missing"))
