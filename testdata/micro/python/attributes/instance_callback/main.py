# Pattern: a callable stored on an instance in __init__ (`self.callback = cb`) and invoked later via `self.callback(...)`.
# Modelled on click.Command(callback=...) and Command.invoke calling `self.callback(**params)`.


class Command:
    def __init__(self, name, callback, result_callback=None):
        self.name = name
        self.callback = callback
        self.result_callback = result_callback

    def invoke(self, **params):
        rv = self.callback(**params)
        if self.result_callback is not None:
            rv = self.result_callback(rv)
        return rv


def greet(name, shout=False):
    msg = "hello " + name
    return msg.upper() if shout else msg


def deploy(target):
    return "deployed to " + target


def add_exit_code(rv):
    return (rv, 0)


commands = [Command("greet", greet), Command("deploy", deploy, result_callback=add_exit_code)]
print(commands[0].invoke(name="world", shout=True))
print(commands[1].invoke(target="staging"))
