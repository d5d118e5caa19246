# Pattern: `typing.Protocol` declares a method; code typed against the protocol
# calls it and must reach the structural implementations (which do not inherit
# from the protocol). Modelled on `typing.SupportsClose` / file-like "writer" args.
from typing import Protocol


class SupportsRender(Protocol):
    def render(self, indent: int) -> str: ...


class Heading:
    def __init__(self, text: str):
        self.text = text

    def render(self, indent: int) -> str:
        return " " * indent + "# " + self.text


class Paragraph:
    def __init__(self, text: str):
        self.text = text

    def render(self, indent: int) -> str:
        return " " * indent + self.text


class ExplicitBlock(SupportsRender):
    def render(self, indent: int) -> str:
        return " " * indent + "---"


def render_document(blocks: list[SupportsRender]) -> str:
    return "\n".join(block.render(2) for block in blocks)


def render_one(block: SupportsRender) -> str:
    return block.render(0)


print(render_document([Heading("Intro"), Paragraph("Body text"), ExplicitBlock()]))
print(render_one(Heading("Solo")))
