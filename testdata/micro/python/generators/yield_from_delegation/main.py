# Pattern: `yield from` delegating to sub-generators (recursive tree walk) plus a helper called per node.
# Modelled on os.walk / ast.walk and xml.etree.ElementTree.Element.iter.


class Node:
    def __init__(self, tag, children=()):
        self.tag = tag
        self.children = list(children)


def visible(node):
    return not node.tag.startswith("_")


def iter_children(node):
    for child in node.children:
        yield from walk(child)


def walk(node):
    if visible(node):
        yield node.tag
    yield from iter_children(node)


def leaves(node):
    if not node.children:
        yield node.tag
        return
    for child in node.children:
        yield from leaves(child)


tree = Node("html", [Node("head", [Node("_meta")]), Node("body", [Node("p"), Node("div")])])
print(list(walk(tree)), list(leaves(tree)))
