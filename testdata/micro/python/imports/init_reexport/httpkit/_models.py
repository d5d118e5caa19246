class Response:
    def __init__(self, status, url):
        self.status = status
        self.url = url

    def raise_for_status(self):
        if self.status >= 400:
            raise RuntimeError(self.status)
        return self
