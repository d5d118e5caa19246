# Pattern: a class attribute holds a class; methods instantiate it via `self.xxx_class(...)`, and a subclass overrides it.
# Modelled on Flask's `app.request_class` / `app.response_class` / `app_ctx_globals_class`.


class Request:
    def __init__(self, environ):
        self.path = environ.get("PATH_INFO", "/")


class Response:
    def __init__(self, body, status=200):
        self.body, self.status = body, status


class JSONResponse(Response):
    def __init__(self, body, status=200):
        super().__init__('{"data": "%s"}' % body, status)


class App:
    request_class = Request
    response_class = Response

    def make_response(self, rv):
        return self.response_class(rv)

    def wsgi_app(self, environ):
        request = self.request_class(environ)
        return self.make_response("hello " + request.path)


class ApiApp(App):
    response_class = JSONResponse


print(App().wsgi_app({"PATH_INFO": "/"}).body)
print(ApiApp().wsgi_app({"PATH_INFO": "/api"}).body)
