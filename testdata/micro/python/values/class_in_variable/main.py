# Pattern: a class held in a variable, then instantiated through the variable.
# Modelled on http.server / socketserver storing `RequestHandlerClass` and calling it per request.


class BaseHandler:
    def __init__(self, path):
        self.path = path

    def handle(self):
        return "base:" + self.path


class StaticHandler(BaseHandler):
    def handle(self):
        return "static:" + self.path


class ApiHandler(BaseHandler):
    def handle(self):
        return "api:" + self.path


def pick_handler_class(path):
    handler_cls = BaseHandler
    if path.startswith("/static/"):
        handler_cls = StaticHandler
    elif path.startswith("/api/"):
        handler_cls = ApiHandler
    return handler_cls


def serve(paths):
    out = []
    for path in paths:
        klass = pick_handler_class(path)
        handler = klass(path)
        out.append(handler.handle())
    return out


print(serve(["/static/app.js", "/api/users", "/index.html"]))
