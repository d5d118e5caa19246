# Pattern: relative imports inside a package: `from . import util`,
# `from .util import helper`, `from ..util import normalize` in a subpackage.
# Modelled on the layout of packages like requests (`from .compat import ...`).
from textkit.analyze import summary

print(summary("The  Quick brown fox AND the lazy Dog"))
