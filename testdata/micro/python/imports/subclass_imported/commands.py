from plugins.base import Command
import plugins.base as base


class Greet(Command):
    name = "greet"

    def execute(self):
        return f"hello {' '.join(self.args)}"


class Shout(base.Command):
    name = "shout"

    def validate(self):
        super().validate()
        self.args = [a.upper() for a in self.args]
