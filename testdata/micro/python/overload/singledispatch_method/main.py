# Pattern: `functools.singledispatchmethod` on a class, with registered
# implementations dispatched on the first non-self argument. Modelled on
# visitor-style code generators (e.g. ast.NodeVisitor alternatives).
import functools


class Literal:
    def __init__(self, value):
        self.value = value


class BinOp:
    def __init__(self, left, op, right):
        self.left = left
        self.op = op
        self.right = right


class Compiler:
    def __init__(self):
        self.emitted = []

    @functools.singledispatchmethod
    def compile(self, node):
        raise TypeError(type(node).__name__)

    @compile.register
    def _(self, node: Literal):
        self.emit(f"PUSH {node.value}")

    @compile.register
    def compile_binop(self, node: BinOp):
        self.compile(node.left)
        self.compile(node.right)
        self.emit(f"OP {node.op}")

    def emit(self, instr):
        self.emitted.append(instr)


def main():
    compiler = Compiler()
    compiler.compile(BinOp(Literal(1), "+", BinOp(Literal(2), "*", Literal(3))))
    try:
        compiler.compile("oops")
    except TypeError as exc:
        compiler.emit(f"ERR {exc}")
    print(compiler.emitted)


main()
