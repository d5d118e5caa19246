#!/usr/bin/env python3
"""The runtime oracle for Python programs of ccd's micro-benchmark
(internal/oracle, `just micro`).

    python3 pytrace.py ROOT > edges.json

Runs ROOT/main.py as __main__ (ROOT is the working directory and
sys.path[0]) under sys.setprofile and records every call whose caller and
callee are both code in a .py file under ROOT: the call site (file, line)
and the callee's definition (file, line of `def`/`class`/`lambda`). What
ran is the truth; nothing is inferred. ccd's parser plays no part.

Conventions, the ones ccd's export and the static oracles use:
- A call of a class goes to the __init__ the class defines or inherits
  from a class under ROOT, else to the class itself. The second case has
  no Python frame of its own, so a class under ROOT without such an
  __init__ gets one added by an outermost class decorator (an AST rewrite
  at import; it runs after the class's own decorators, reports the
  instantiation and hands the arguments on); a dataclass's generated
  __init__ counts as the class.
- Generators and coroutines run their body only when resumed, far from
  the call that made them, so every `def` of one under ROOT is wrapped
  (an AST rewrite at import) to report the call that makes it.
- An edge's line is the line its call expression starts on; alt holds the
  lines of the callee's name and of the instruction that called. A call
  with no call expression at that spot (`with`, `for`, `raise C`, an
  operator, a property, a decorator) is kind "implicit"; a function a
  builtin such as sorted or min runs is kind "callback" (at the
  builtin's call); a call expression through another name than the
  callee's (`a = f; a()`, `handlers[k]()`, `list(map(f, xs))`) is kind
  "value"; the rest are kind "call".
- Lambdas are named by their line (ccd's fn@N); comprehension and class
  bodies are not functions and are not recorded.
"""

import ast
import builtins
import importlib.machinery
import importlib.util
import json
import os
import runpy
import sys
import threading

ROOT = os.path.realpath(sys.argv[1]) if len(sys.argv) > 1 else None

CO_OPTIMIZED = 0x1
SKIP_NAMES = {"<module>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}

edges = {}
builtin_calls = []  # frames running a builtin (map, sorted, ...) now
errors = []
calls_seen = 0
asts = {}  # abs path -> (call index, source lines, with/for blocks)
def_lines = {}  # code object -> def line


def rel(path):
    """ROOT-relative path of a file under ROOT, else None."""
    if not path or path.startswith("<"):
        return None
    p = os.path.realpath(path)
    if p == ROOT or not p.startswith(ROOT + os.sep):
        return None
    if not p.endswith(".py"):
        return None
    return os.path.relpath(p, ROOT)


def file_info(path):
    """Calls of a file indexed by where they end, the file's lines, and
    the (first, last) lines of its with and for statements."""
    got = asts.get(path)
    if got is not None:
        return got
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        tree = ast.parse(src, path)
    except (OSError, SyntaxError, ValueError) as e:
        errors.append("%s: %s" % (path, e))
        got = ({}, [], [])
        asts[path] = got
        return got
    ends, blocks = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            ends.setdefault((node.end_lineno, node.end_col_offset), []).append(node)
        elif isinstance(node, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor)):
            blocks.append((node.lineno, node.end_lineno))
    got = (ends, src.splitlines(), blocks)
    asts[path] = got
    return got


def enclosing_block(path, line):
    """The first line of the innermost with or for statement whose lines
    hold line, or None."""
    _, _, blocks = file_info(path)
    best = None
    for start, end in blocks:
        if start <= line <= end and (best is None or start > best):
            best = start
    return best


def def_line(code):
    """The line of `def NAME`, `class NAME` or `lambda` a code object
    comes from (co_firstlineno is the first decorator's line)."""
    got = def_lines.get(code)
    if got is not None:
        return got
    line = code.co_firstlineno
    if code.co_name != "<lambda>":
        _, lines, _ = file_info(os.path.realpath(code.co_filename))
        for i in range(line - 1, min(len(lines), line + 50)):
            s = lines[i].lstrip()
            if s.startswith(("def ", "async def ", "class ")):
                line = i + 1
                break
    def_lines[code] = line
    return line


def site(frame, callee_name):
    """(line, alt lines, kind) of the call the frame is making now."""
    code = frame.f_code
    line = frame.f_lineno
    pos = None
    try:
        for i, p in enumerate(code.co_positions()):
            if i == frame.f_lasti // 2:
                pos = p
                break
    except (AttributeError, ValueError):
        pos = None
    alt = set()
    if pos and pos[0] is not None:
        alt.add(pos[0])
    kind = "implicit"
    if pos and pos[1] is not None and pos[3] is not None:
        ends, _, _ = file_info(os.path.realpath(code.co_filename))
        calls = ends.get((pos[1], pos[3]))
        if calls:
            call = min(calls, key=lambda c: (c.lineno, c.col_offset))
            kind = "call"
            f = call.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name != callee_name and callee_name not in ("__init__", "__call__"):
                kind = "value"
            alt.add(line)
            alt.add(call.func.end_lineno)
            line = call.lineno
    if kind != "call":
        # A protocol call (with, async with, for, async for) may be
        # placed on a line of the statement's body: the header is an
        # alternative.
        stmt = enclosing_block(os.path.realpath(code.co_filename), line)
        if stmt is not None:
            alt.add(stmt)
    alt.discard(line)
    return line, sorted(alt), kind


def record(caller, callee_file, callee_line, callee_name, kind=None):
    global calls_seen
    calls_seen += 1
    cfile = rel(caller.f_code.co_filename)
    if cfile is None or callee_file is None:
        return
    line, alt, k = site(caller, callee_name)
    if kind is None:
        kind = k
    key = (cfile, line, callee_file, callee_line, kind)
    e = edges.get(key)
    if e is None:
        edges[key] = {"file": cfile, "line": line, "alt": alt, "callee_file": callee_file,
                      "callee_line": callee_line, "callee_name": callee_name, "kind": kind}
    else:
        e["alt"] = sorted(set(e["alt"]) | set(alt))


def profile(frame, event, arg):
    if event == "c_call":
        builtin_calls.append(frame)
        return
    if event in ("c_return", "c_exception"):
        if builtin_calls and builtin_calls[-1] is frame:
            builtin_calls.pop()
        return
    if event != "call":
        return
    code = frame.f_code
    caller = frame.f_back
    if caller is None:
        return
    if not (code.co_flags & CO_OPTIMIZED) or code.co_name in SKIP_NAMES:
        return
    if code.co_flags & (0x20 | 0x80 | 0x200):  # generator, coroutine, async generator
        # Resumed, not called: the wrapper reported the call that made it.
        return
    callee = rel(code.co_filename)
    if callee is None:
        if code.co_name == "__init__" and code.co_filename.startswith("<"):
            # A generated __init__ (dataclasses, namedtuple): the class.
            self = frame.f_locals.get("self")
            cls = type(self) if self is not None else None
            if getattr(cls, "__ccd_line__", None):
                record(caller, cls.__ccd_file__, cls.__ccd_line__, cls.__name__)
        return
    kind = None
    if builtin_calls and builtin_calls[-1] is caller:
        kind = "callback"
    record(caller, callee, def_line(code), code.co_name, kind)


# Classes without an __init__ of their own under ROOT.

def _root_init(cls):
    for k in cls.__mro__:
        f = k.__dict__.get("__init__")
        if f is None:
            continue
        if getattr(f, "__ccd_added__", False):
            continue
        code = getattr(f, "__code__", None)
        return code is not None and rel(code.co_filename) is not None
    return False


def _added_init(cls):
    def __init__(self, *args, **kwargs):
        if type(self) is cls:
            frame = sys._getframe(1)
            record(frame, cls.__ccd_file__, cls.__ccd_line__, cls.__name__)
        nxt = super(cls, self).__init__
        if getattr(nxt, "__objclass__", None) is object:
            return
        nxt(*args, **kwargs)
    __init__.__ccd_added__ = True
    return __init__


def class_decorator(file, line):
    """The outermost decorator added to every class under ROOT: after the
    class's own decorators (dataclass adds an __init__) it records where
    the class is and gives it an __init__ that reports instantiations when
    it has none under ROOT."""
    def mark(cls):
        if not isinstance(cls, type):
            return cls
        try:
            cls.__ccd_file__ = file
            cls.__ccd_line__ = line
            if "__init__" not in cls.__dict__ and not _root_init(cls):
                cls.__init__ = _added_init(cls)
        except (AttributeError, TypeError):
            pass  # a class that refuses new attributes
        return cls
    return mark


# Generators and coroutines: a wrapper reports the call that makes one.

def _made(fn, file, line):
    import functools
    import inspect

    @functools.wraps(fn)
    def made(*args, **kwargs):
        record(sys._getframe(1), file, line, fn.__name__)
        return fn(*args, **kwargs)
    if inspect.iscoroutinefunction(fn):
        # asyncio.iscoroutinefunction(made) stays true (Python 3.11's marker).
        import asyncio.coroutines
        made._is_coroutine = getattr(asyncio.coroutines, "_is_coroutine", None)
    return made


class _Wrap(ast.NodeTransformer):
    def __init__(self, file):
        self.file = file

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        if self._suspends(node) or isinstance(node, ast.AsyncFunctionDef):
            dec = ast.Call(
                func=ast.Name(id="__ccd_made__", ctx=ast.Load()),
                args=[ast.Constant(self.file), ast.Constant(node.lineno)], keywords=[])
            ast.copy_location(dec, node)
            ast.fix_missing_locations(dec)
            node.decorator_list.append(dec)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.generic_visit(node)
        dec = ast.Call(
            func=ast.Name(id="__ccd_class__", ctx=ast.Load()),
            args=[ast.Constant(self.file), ast.Constant(node.lineno)], keywords=[])
        ast.copy_location(dec, node)
        ast.fix_missing_locations(dec)
        node.decorator_list.insert(0, dec)
        return node

    @staticmethod
    def _suspends(fn):
        stack = list(fn.body)
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.Yield, ast.YieldFrom)):
                return True
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            stack.extend(ast.iter_child_nodes(n))
        return False


def made_decorator(file, line):
    return lambda fn: _made(fn, file, line)


def compile_wrapped(src, path):
    file = rel(path)
    tree = ast.parse(src, path)
    if file is not None:
        tree = _Wrap(file).visit(tree)
        ast.fix_missing_locations(tree)
    return compile(tree, path, "exec", dont_inherit=True)


class Loader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data, path, *, _optimize=-1):
        return compile_wrapped(importlib.util.decode_source(data), path)


def main():
    if ROOT is None:
        sys.stderr.write("usage: pytrace.py ROOT\n")
        sys.exit(2)
    files = []
    for d, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x != "__pycache__")
        for n in sorted(names):
            if n.endswith(".py"):
                files.append(os.path.relpath(os.path.join(d, n), ROOT))
    sys.dont_write_bytecode = True
    m = importlib.machinery
    sys.path_hooks.insert(0, m.FileFinder.path_hook(
        (m.ExtensionFileLoader, m.EXTENSION_SUFFIXES),
        (Loader, m.SOURCE_SUFFIXES),
        (m.SourcelessFileLoader, m.BYTECODE_SUFFIXES)))
    sys.path_importer_cache.clear()
    builtins.__ccd_class__ = class_decorator
    builtins.__ccd_made__ = made_decorator
    main_py = os.path.join(ROOT, "main.py")
    os.chdir(ROOT)
    sys.path[0] = ROOT
    sys.argv = [main_py]
    out = sys.stdout
    sys.stdout = open(os.devnull, "w")
    with open(main_py, encoding="utf-8") as f:
        code = compile_wrapped(f.read(), main_py)
    glb = {"__name__": "__main__", "__file__": main_py, "__builtins__": builtins}
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        exec(code, glb)
    except SystemExit as e:
        if e.code not in (None, 0):
            errors.append("main.py exited with %r" % (e.code,))
    except BaseException as e:  # the program's own failure is reported, not raised
        errors.append("main.py raised %s: %s" % (type(e).__name__, e))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        sys.stdout = out
    res = {
        "tool": "CPython %d.%d.%d sys.setprofile (runtime)" % sys.version_info[:3],
        "root": ROOT,
        "files": files,
        "edges": sorted(edges.values(), key=lambda e: (e["file"], e["line"], e["callee_file"], e["callee_line"], e["kind"])),
        "counts": {"edges": len(edges), "calls": calls_seen},
    }
    if errors:
        res["errors"] = errors
    json.dump(res, out, indent=1)
    out.write("\n")


if __name__ == "__main__":
    main()
