# Pattern: a function/method returns a bound method; the caller calls it without knowing the receiver.
# Modelled on unittest's `getattr(self, methodName)` and http.server's `getattr(self, 'do_' + command)`.


class RequestHandler:
    def __init__(self, path):
        self.path = path

    def do_GET(self):
        return "GET " + self.path

    def do_DELETE(self):
        return "DELETE " + self.path

    def send_error(self):
        return "501 " + self.path

    def lookup(self, command):
        if command == "GET":
            return self.do_GET
        if command == "DELETE":
            return self.do_DELETE
        return self.send_error


def handle_one_request(handler, command):
    method = handler.lookup(command)
    return method()


h = RequestHandler("/items/1")
for cmd in ("GET", "DELETE", "PATCH"):
    print(handle_one_request(h, cmd))
