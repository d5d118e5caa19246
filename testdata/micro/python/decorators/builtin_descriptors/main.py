# Pattern: @property (getter and setter), @staticmethod and @classmethod -- attribute access / calls reach the function.
# Modelled on datetime.date.fromisoformat (classmethod constructor) and urllib.parse result properties.


class URL:
    def __init__(self, scheme, host, port=None):
        self.scheme = scheme
        self.host = host
        self._port = port

    @classmethod
    def parse(cls, text):
        scheme, rest = text.split("://", 1)
        host, _, port = rest.partition(":")
        return cls(scheme, host, int(port) if port else None)

    @staticmethod
    def default_port(scheme):
        return {"http": 80, "https": 443}.get(scheme, 0)

    @property
    def port(self):
        if self._port is None:
            return self.default_port(self.scheme)
        return self._port

    @port.setter
    def port(self, value):
        self._port = int(value)

    @property
    def netloc(self):
        return "%s:%d" % (self.host, self.port)


u = URL.parse("https://example.invalid")
print(u.netloc)
u.port = "8443"
print(u.netloc, URL.default_port("http"))
