# Pattern: a base-class method calls hooks on `self` that subclasses override
# (template method). Modelled on unittest.TestCase.run() calling setUp/tearDown
# and socketserver.BaseRequestHandler.__init__ calling self.handle().


class BaseRequestHandler:
    def __init__(self, request):
        self.request = request
        self.output = []
        self.setup()
        try:
            self.handle()
        finally:
            self.finish()

    def setup(self):
        self.output.append("base-setup")

    def handle(self):
        self.output.append("base-handle")

    def finish(self):
        self.output.append("base-finish")


class EchoHandler(BaseRequestHandler):
    def handle(self):
        self.output.append(f"echo:{self.request}")


class StreamHandler(EchoHandler):
    def setup(self):
        super().setup()
        self.output.append("stream-setup")

    def finish(self):
        self.output.append("flush")
        super().finish()


print(BaseRequestHandler("ping").output)
print(EchoHandler("hi").output)
print(StreamHandler("data").output)
