# Pattern: receivers typed only by a return annotation, `make_parser().parse()`,
# including a forward-reference string annotation (`-> "Node"`).
# Modelled on ast/json-style parsers that build a tree of nodes.
from __future__ import annotations


class Node:
    def __init__(self, kind: str, children: list | None = None):
        self.kind = kind
        self.children = children or []

    def add(self, child: "Node") -> "Node":
        self.children.append(child)
        return self

    def dump(self) -> str:
        inner = " ".join(c.dump() for c in self.children)
        return f"({self.kind}{' ' + inner if inner else ''})"


class Parser:
    def __init__(self, text: str):
        self.tokens = text.split()

    def parse(self) -> "Node":
        root = Node("root")
        for tok in self.tokens:
            root.add(Node(tok))
        return root


def make_parser(text: str) -> Parser:
    return Parser(text)


def parse_and_dump(text: str) -> str:
    tree = make_parser(text).parse()
    return tree.dump()


if __name__ == "__main__":
    print(parse_and_dump("let x be 1"))
