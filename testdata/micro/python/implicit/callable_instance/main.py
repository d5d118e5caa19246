# Pattern: instances invoked like functions dispatch to __call__, including when
# stored in a registry and when used as a decorator. Modelled on flask's
# `app.route` decorators / WSGI middleware objects that wrap an app callable.


class Middleware:
    def __init__(self, app, header):
        self.app = app
        self.header = header

    def __call__(self, environ):
        environ = dict(environ, header=self.header)
        return self.app(environ)


class Router:
    def __init__(self):
        self.routes = {}

    def route(self, path):
        return RouteDecorator(self, path)

    def __call__(self, environ):
        handler = self.routes[environ["path"]]
        return handler(environ)


class RouteDecorator:
    def __init__(self, router, path):
        self.router = router
        self.path = path

    def __call__(self, func):
        self.router.routes[self.path] = func
        return func


router = Router()


@router.route("/hello")
def hello(environ):
    return f"hello {environ['header']}"


app = Middleware(router, "X-Test")
print(app({"path": "/hello"}))
