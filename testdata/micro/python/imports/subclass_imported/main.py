# Pattern: classes imported from another module (via `from x import C` and
# `import x as m; class S(m.C)`) and subclassed; inherited run() dispatches to
# overrides. Modelled on click/distutils Command subclasses in plugin modules.
from commands import Greet, Shout
from plugins.base import Command

for command in (Greet(["ada"]), Shout(["hey"]), Command([])):
    print(command.run())
