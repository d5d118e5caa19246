# Pattern: deep attribute chains `self.client.session.adapter.send()` where each
# hop is a constructor result stored in an attribute, some with annotated attributes.
# Modelled on requests' Session -> HTTPAdapter -> connection pool layering.


class Connection:
    def __init__(self, host):
        self.host = host

    def send(self, payload):
        return f"{self.host}<-{payload}"


class Adapter:
    def __init__(self, host):
        self.conn: Connection = Connection(host)

    def send(self, request):
        return self.conn.send(request.upper())


class Session:
    def __init__(self, host):
        self.adapter = Adapter(host)

    def prepare(self, path):
        return f"GET {path}"


class Client:
    def __init__(self, host):
        self.session = Session(host)

    def get(self, path):
        request = self.session.prepare(path)
        return self.session.adapter.conn.send(request)

    def get_via_adapter(self, path):
        return self.session.adapter.send(self.session.prepare(path))


def main():
    client = Client("example.test")
    print(client.get("/a"), client.get_via_adapter("/b"))


main()
