from ._models import Response


class Client:
    def __init__(self, base_url):
        self.base_url = base_url

    def get(self, path):
        return Response(200, f"{self.base_url}{path}")
