class Command:
    name = "base"

    def __init__(self, args):
        self.args = args

    def run(self):
        self.validate()
        return self.execute()

    def validate(self):
        if not isinstance(self.args, list):
            raise TypeError("args must be a list")

    def execute(self):
        return f"{self.name}: nothing to do"
