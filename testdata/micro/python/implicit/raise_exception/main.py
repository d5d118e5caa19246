# Pattern: `raise C(...)` and bare `raise C` both run C.__init__ implicitly;
# the handler then calls a method. Modelled on http.client / requests exception
# hierarchies (HTTPError carrying a status, bare `raise Timeout`).


class RequestError(Exception):
    def __init__(self, message="request failed"):
        super().__init__(message)
        self.message = message

    def summary(self):
        return f"{type(self).__name__}: {self.message}"


class HTTPError(RequestError):
    def __init__(self, status):
        super().__init__(f"status {status}")
        self.status = status


class Timeout(RequestError):
    def __init__(self):
        super().__init__("timed out")


def fetch(status):
    if status is None:
        raise Timeout
    if status >= 400:
        raise HTTPError(status)
    return "body"


def main():
    results = []
    for status in (200, 404, None):
        try:
            results.append(fetch(status))
        except RequestError as exc:
            results.append(exc.summary())
    print(results)


main()
