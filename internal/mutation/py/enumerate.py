"""List the functions of Python files and where a failing statement goes.

usage: python3 -S enumerate.py ROOT FILE...

Prints JSON: one object per function or method defined at module level or
in a class (functions nested in functions are left out: they are not
definitions of their own in ccd's graph either).
"""
import ast
import json
import os
import sys


def public(name):
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def insertion(fn, lines):
    """Where the failing statement goes: the first statement after the
    docstring. mode "line": a new line before `line` with `indent`;
    "inline": at byte column `col` of `line`, followed by "; " (a body on
    the def's own line); "after": a new line after `line` (a body that is
    only a docstring)."""
    body = fn.body
    first = body[0]
    doc = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
           and isinstance(first.value.value, str))
    if doc:
        if len(body) == 1:
            indent = lines[first.lineno - 1][:first.col_offset]
            if first.lineno == fn.lineno or indent.strip():
                return None
            return {"mode": "after", "line": first.end_lineno, "indent": indent}
        first = body[1]
    text = lines[first.lineno - 1]
    indent = text[:first.col_offset]
    if indent.strip():
        # The statement does not start its line (def f(): return 1).
        return {"mode": "inline", "line": first.lineno, "col": len(indent.encode())}
    return {"mode": "line", "line": first.lineno, "indent": indent}


def walk(tree, lines, rel):
    out = []

    def visit(node, quals, public_so_far):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, quals + [child.name], public_so_far and public(child.name))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                ins = insertion(child, lines)
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append({
                    "file": rel,
                    "name": ".".join(quals + [child.name]),
                    "line": child.lineno,
                    "first": first,
                    "end": child.end_lineno,
                    "exported": public_so_far and public(child.name),
                    "insert": ins,
                })
            elif isinstance(child, (ast.If, ast.Try, ast.With)):
                # Definitions under `if sys.platform ...:` or `try:` at
                # module or class level are still definitions.
                visit(child, quals, public_so_far)

    visit(tree, [], True)
    return out


def main():
    root = sys.argv[1]
    out = []
    for rel in sys.argv[2:]:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            src = f.read()
        out.extend(walk(ast.parse(src), src.split("\n"), rel))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
