#!/usr/bin/python3
"""The Python oracle of ccd's accuracy harness (internal/oracle).

    /usr/bin/python3 pyoracle.py ROOT > edges.json

Walks every .py file under ROOT with the ast module; for every Call node
(and every decorator written as a bare name, which is a call too) asks jedi
where the callee's name goes (Script.goto with follow_imports, falling back
to Script.infer when goto stops at a variable or a parameter) and keeps the
targets that are functions or classes defined under ROOT. ccd's parser
plays no part. The call sites jedi cannot resolve at all are listed too
("unresolved": file, line, callee name), so that the harness can tell an
edge the oracle contradicts from one it cannot check.

Constructors: a call to a class goes to the __init__ the class defines or
inherits from a class defined under ROOT (the first found depth-first
through the bases, each base resolved by jedi), else to the class itself:
the convention ccd's export follows.

jedi's costs: each query gets a budget of CPU time (CCD_PYORACLE_BUDGET,
default 1 s; jedi infers a parameter from every call of its function and
that can run for minutes); a query past it counts as a timeout and as
unresolved. One Script serves a file's queries, and a query that resolves
to nothing is asked again of a fresh Script (an inference state keeps what
it once failed to infer). The packages under ROOT are read from their
source, never through typeshed's stubs (see _no_stub_for_root).

Lines are 1-based. An edge's line is the line the call expression starts
on; alt holds the line of the callee's name when it differs (a chained
call spanning lines).

Needs jedi (Debian: apt-get install python3-jedi; run with /usr/bin/python3).
"""

import ast
import json
import os
import signal
import sys
import time

import jedi
from jedi.inference.gradual import typeshed as _typeshed

# jedi reads standard library modules through typeshed's stubs, also when
# the package measured is a copy of one (email, json, logging): it would
# then resolve through the stub's classes (which may lack a method the
# source defines) instead of the source. The packages under the root get
# no stub: jedi infers them from their source, as for any other package.
ROOT_PACKAGES = set()
_load_stub = _typeshed._try_to_load_stub


def _no_stub_for_root(inference_state, import_names, *args, **kwargs):
    if import_names and import_names[0] in ROOT_PACKAGES:
        return None
    return _load_stub(inference_state, import_names, *args, **kwargs)


_typeshed._try_to_load_stub = _no_stub_for_root


class Timeout(BaseException):
    """Raised by the profiling timer when one query has used its CPU budget
    (CPU time, not wall time, so that a busy machine gets the same answers;
    a BaseException, so that jedi's own `except Exception` lets it through)."""


def _alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGPROF, _alarm)


def is_stub(name):
    p = name.module_path
    return p is not None and str(p).endswith(".pyi")


def rel(root, path):
    r = os.path.relpath(str(path), root)
    if r.startswith(".."):
        return None
    return r.replace(os.sep, "/")


class Oracle:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.env = jedi.InterpreterEnvironment()
        self.project = jedi.Project(self.root)
        self.scripts = {}  # abs path -> jedi.Script
        self.codes = {}  # abs path -> source text
        # CCD_PYORACLE_REUSE=1: no second try with a fresh Script (faster)
        self.reuse = os.environ.get("CCD_PYORACLE_REUSE") == "1"
        self.timed_out = False
        # CPU seconds one query may take (jedi's inference of a parameter
        # through every call of its function can run for minutes)
        self.budget = float(os.environ.get("CCD_PYORACLE_BUDGET", "1"))
        self.trees = {}  # abs path -> ast.Module
        self.sources = {}  # abs path -> list of line bytes
        self.init_cache = {}  # (abs path, class line) -> (path, line, name)
        self.counts = {}
        self.errors = []
        self.files = set()
        self.unresolved = []  # call sites jedi could not resolve at all

    def count(self, k, n=1):
        self.counts[k] = self.counts.get(k, 0) + n

    def load(self, path):
        if path not in self.trees:
            with open(path, "rb") as f:
                data = f.read()
            self.sources[path] = data.split(b"\n")
            try:
                self.trees[path] = ast.parse(data, filename=path)
            except (SyntaxError, ValueError) as e:
                self.trees[path] = None
                self.errors.append("%s: %s" % (path, e))
            self.codes[path] = data.decode("utf-8", "replace")
        return self.trees[path]

    def char_col(self, path, line, byte_col):
        """ast columns are UTF-8 byte offsets; jedi's are characters."""
        lines = self.sources[path]
        if line - 1 >= len(lines):
            return byte_col
        return len(lines[line - 1][:byte_col].decode("utf-8", "replace"))

    def name_pos(self, path, node):
        """(line, char column) of the name a call goes through, or None."""
        if isinstance(node, ast.Name):
            return node.lineno, self.char_col(path, node.lineno, node.col_offset)
        if isinstance(node, ast.Attribute):
            line = node.end_lineno
            end = self.char_col(path, line, node.end_col_offset)
            return line, end - len(node.attr)
        return None

    def in_root(self, name):
        p = name.module_path
        if p is None:
            return None
        r = rel(self.root, os.path.realpath(str(p)))
        if r is None or not r.endswith(".py"):
            return None
        return r

    def script(self, path, fresh=False):
        """The file's Script, or a fresh one."""
        if not fresh and path in self.scripts:
            return self.scripts[path]
        s = jedi.Script(code=self.codes[path], path=path, project=self.project, environment=self.env)
        self.scripts[path] = s
        return s

    def query(self, what, path, line, col, fresh=False):
        """goto or infer at (line, col) within the time budget; None when
        jedi failed or ran out of time."""
        s = self.script(path, fresh)
        # jedi bounds the function executions of one inference state (200
        # in all, 6 per function): start each query with fresh bounds, as
        # jedi does between the names it completes.
        s._inference_state.reset_recursion_limitations()
        signal.setitimer(signal.ITIMER_PROF, self.budget)
        try:
            if what == "goto":
                return s.goto(line, col, follow_imports=True)
            return s.infer(line, col)
        except Timeout:
            self.count("timeout")
            self.timed_out = True
            self.scripts.pop(path, None)  # its caches may be half made
            return None
        except Exception as e:  # jedi has bugs on odd code
            self.count("jedi_error")
            if len(self.errors) < 20:
                self.errors.append("%s:%d:%d %s: %r" % (path, line, col, what, e))
            return None
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)

    def resolve(self, path, line, col):
        """jedi's targets for the name at (line, col): [(name, how)].

        One Script serves all the queries of a file, but what an inference
        state failed to infer once (it hit jedi's bounds) stays failed in
        its caches: a query that resolves to nothing is asked again of a
        fresh Script."""
        self.timed_out = False
        got = self._resolve(path, line, col, False)
        if not got and not self.timed_out and not self.reuse:
            got = self._resolve(path, line, col, True)
            if got:
                self.count("found_by_fresh_script")
        return got

    def _resolve(self, path, line, col, fresh):
        names = self.query("goto", path, line, col, fresh)
        if not names:
            return []
        defs = [n for n in names if n.type in ("function", "class")]
        if defs and all(self.in_root(n) is not None or not is_stub(n) for n in defs):
            return [(n, "goto") for n in defs]
        # goto stopped at a variable or a parameter, or landed in a typeshed
        # stub: infer maps the value to its source.
        inferred = self.query("infer", path, line, col)
        how = "goto" if defs else "infer"
        got = [(n, how) for n in inferred or [] if n.type in ("function", "class")]
        if not got and defs:
            return [(n, "goto") for n in defs]
        return got

    def class_node(self, path, line):
        tree = self.load(path)
        if tree is None:
            return None
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef) and n.lineno == line:
                return n
        return None

    def constructor(self, path, line, depth=0):
        """The __init__ a class at (path, line) defines or inherits from a
        class under the root: (abs path, line, "__init__"), or None."""
        key = (path, line)
        if key in self.init_cache:
            return self.init_cache[key]
        self.init_cache[key] = None  # cycles
        cls = self.class_node(path, line)
        found = None
        if cls is not None and depth < 12:
            for st in cls.body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == "__init__":
                    found = (path, st.lineno, "__init__")
                    break
            if found is None:
                for base in cls.bases:
                    pos = self.name_pos(path, base)
                    if pos is None:
                        continue
                    for n, _ in self.resolve(path, pos[0], pos[1]):
                        if n.type != "class" or self.in_root(n) is None:
                            continue
                        bp = os.path.realpath(str(n.module_path))
                        self.load(bp)
                        found = self.constructor(bp, n.line, depth + 1)
                        break
                    if found is not None:
                        break
                    # a base outside the root ends the search on this path
        self.init_cache[key] = found
        return found

    def target(self, n):
        """(rel file, line, name) of a callee, constructors mapped."""
        r = self.in_root(n)
        if r is None:
            return None
        if n.type == "class":
            p = os.path.realpath(str(n.module_path))
            self.load(p)
            init = self.constructor(p, n.line)
            if init is not None:
                return rel(self.root, init[0]), init[1], init[2]
        return r, n.line, n.name

    def walk_file(self, path):
        tree = self.load(path)
        rp = rel(self.root, path)
        self.files.add(rp)
        if tree is None:
            return []
        edges = []
        sites = []  # (line, alt line, func node, kind)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                sites.append((node.lineno, node.func, "call"))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for d in node.decorator_list:
                    if isinstance(d, (ast.Name, ast.Attribute)):
                        sites.append((d.lineno, d, "decorator"))
        sites.sort(key=lambda s: (s[0], getattr(s[1], "col_offset", 0)))
        for line, func, what in sites:
            pos = self.name_pos(path, func)
            if pos is None:
                self.count("unnamed_callee")  # f()(), d[k](), (lambda: 0)()
                continue
            self.count("sites")
            targets = self.resolve(path, pos[0], pos[1])
            kept = False
            for n, how in targets:
                t = self.target(n)
                if t is None:
                    continue
                e = {
                    "file": rp,
                    "line": line,
                    "callee_file": t[0],
                    "callee_line": t[1],
                    "callee_name": t[2],
                    "kind": "decorator" if what == "decorator" else how,
                }
                if pos[0] != line:
                    e["alt"] = [pos[0]]
                edges.append(e)
                kept = True
            if kept:
                self.count("resolved_in_root")
            elif targets:
                self.count("resolved_outside")
            else:
                self.count("unresolved")
                u = {"file": rp, "line": line, "name": func.id if isinstance(func, ast.Name) else func.attr}
                if pos[0] != line:
                    u["alt"] = [pos[0]]
                self.unresolved.append(u)
        return edges


def main():
    if len(sys.argv) != 2:
        print("usage: pyoracle.py ROOT", file=sys.stderr)
        sys.exit(2)
    start = time.time()
    o = Oracle(sys.argv[1])
    for entry in os.listdir(o.root):
        if entry.endswith(".py"):
            ROOT_PACKAGES.add(entry[:-3])
        elif os.path.isdir(os.path.join(o.root, entry)):
            ROOT_PACKAGES.add(entry)
    paths = []
    for d, dirs, files in os.walk(o.root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                paths.append(os.path.join(d, f))
    edges = []
    for p in paths:
        edges.extend(o.walk_file(p))
    seen = set()
    out_edges = []
    for e in edges:
        k = (e["file"], e["line"], e["callee_file"], e["callee_line"], e["kind"])
        if k in seen:
            continue
        seen.add(k)
        out_edges.append(e)
    out_edges.sort(key=lambda e: (e["file"], e["line"], e["callee_file"], e["callee_line"], e["kind"]))
    o.counts["millis"] = int((time.time() - start) * 1000)
    json.dump(
        {
            "tool": "jedi %s (Python %d.%d)" % (jedi.__version__, sys.version_info[0], sys.version_info[1]),
            "root": o.root,
            "files": sorted(o.files),
            "edges": out_edges,
            "unresolved": o.unresolved,
            "counts": o.counts,
            "errors": o.errors,
        },
        sys.stdout,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
