# Pattern: `from mod import *` governed by `__all__`, then calls to the
# star-imported functions and class. Modelled on `from tkinter import *` /
# `from colorama import *` style usage.
from colors import *


def banner(text):
    palette = Palette(red, bold)
    return palette.apply(text) + red("!")


print(repr(banner("hi")))
