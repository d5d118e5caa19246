__all__ = ["red", "bold", "Palette"]


def red(text):
    return _wrap(text, 31)


def bold(text):
    return _wrap(text, 1)


def _wrap(text, code):
    return f"\x1b[{code}m{text}\x1b[0m"


class Palette:
    def __init__(self, *styles):
        self.styles = styles

    def apply(self, text):
        for style in self.styles:
            text = style(text)
        return text
