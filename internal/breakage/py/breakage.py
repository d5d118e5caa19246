"""Python side of the breakage oracle (internal/breakage).

  python3 breakage.py list ROOT
      prints the functions that can be mutated, as JSON: module-level
      functions and methods of module-level classes in the non-test files,
      each with its signature changes as byte edits that keep every line
      where it is, and how many calls of its name the corpus has.

  python3 breakage.py attribute ROOT < request.json
      request: {"target": {"file", "line", "short", "cls"},
                "diags": [{"file", "sl", "sc", "el", "ec", "rule", "message"}]}
      (pyright's ranges: 0-based lines, UTF-16 columns). Prints
      {"breaks": [{"file", "line", "name_line", "via", "errors"}],
       "other": [{"file", "line", "message", "where"}]}: each error goes to
      the innermost call of the target's name that holds it, else to the
      innermost call that holds it ("via": that call's name).
"""

import ast
import json
import os
import sys

ALLOWED_DECORATORS = {"staticmethod", "classmethod"}


def read(root, rel):
    with open(os.path.join(root, rel), "rb") as f:
        return f.read()


def py_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return sorted(out)


class Lines:
    """Byte offsets of a file's lines (ast columns are UTF-8 bytes)."""

    def __init__(self, src):
        self.src = src
        self.starts = [0]
        for i, b in enumerate(src):
            if b == 0x0A:
                self.starts.append(i + 1)

    def off(self, lineno, col):
        return self.starts[lineno - 1] + col

    def text(self, lineno):
        s = self.starts[lineno - 1]
        e = self.src.find(b"\n", s)
        return self.src[s:] if e < 0 else self.src[s:e]


def deco_name(d):
    if isinstance(d, ast.Name):
        return d.id
    if isinstance(d, ast.Attribute):
        return d.attr
    if isinstance(d, ast.Call):
        return deco_name(d.func)
    return "?"


def functions(tree):
    """(qualname, class name or None, node) of module-level functions and
    methods of module-level classes."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, None, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield node.name + "." + item.name, node.name, item


def call_name(call):
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


class Slot:
    """One parameter, or the `*` / `/` marker, with its byte extent."""

    def __init__(self, kind, start, end, name=None, default=False, arg=None):
        self.kind = kind  # posonly, normal, var, kwonly, varkw, star, slash
        self.start, self.end = start, end
        self.name, self.default, self.arg = name, default, arg


def slots_of(fn, lines):
    a = fn.args
    src = lines.src
    out = []

    def ext(arg, default):
        s = lines.off(arg.lineno, arg.col_offset)
        node = default if default is not None else arg
        e = lines.off(node.end_lineno, node.end_col_offset)
        return s, e

    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, arg in enumerate(pos):
        s, e = ext(arg, defaults[i])
        out.append(Slot("posonly" if i < len(a.posonlyargs) else "normal", s, e, arg.arg, defaults[i] is not None, arg))
        if a.posonlyargs and i == len(a.posonlyargs) - 1:
            j = src.index(b"/", e)
            out.append(Slot("slash", j, j + 1))
    if a.vararg is not None:
        s, e = ext(a.vararg, None)
        star = src.rindex(b"*", 0, s)
        out.append(Slot("var", star, e, a.vararg.arg, False, a.vararg))
    elif a.kwonlyargs:
        first = a.kwonlyargs[0]
        star = src.rindex(b"*", 0, lines.off(first.lineno, first.col_offset))
        out.append(Slot("star", star, star + 1))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        s, e = ext(arg, d)
        out.append(Slot("kwonly", s, e, arg.arg, d is not None, arg))
    if a.kwarg is not None:
        s, e = ext(a.kwarg, None)
        star = src.rindex(b"**", 0, s)
        out.append(Slot("varkw", star, e, a.kwarg.arg, False, a.kwarg))
    return out


def open_paren(fn, lines):
    s = lines.off(fn.lineno, fn.col_offset)
    i = lines.src.index(b"def", s)
    i = lines.src.index(fn.name.encode(), i + 3)
    return lines.src.index(b"(", i + len(fn.name))


def name_line(fn, lines):
    s = lines.off(fn.lineno, fn.col_offset)
    i = lines.src.index(fn.name.encode(), lines.src.index(b"def", s) + 3)
    return lines.src.count(b"\n", 0, i) + 1


def edit(src, off, old_end, new):
    old = src[off:old_end].decode("utf-8")
    return {"off": off, "old": old, "new": new}


def keep_lines(old, new):
    """new, padded with the newlines old had (a deletion across lines)."""
    return new + "\n" * (old.count("\n") - new.count("\n"))


def valid(src, edits):
    out = src
    for e in sorted(edits, key=lambda e: -e["off"]):
        old = e["old"].encode()
        if out[e["off"]:e["off"] + len(old)] != old:
            return False
        if e["old"].count("\n") != e["new"].count("\n"):
            return False
        out = out[:e["off"]] + e["new"].encode() + out[e["off"] + len(old):]
    try:
        ast.parse(out)
    except SyntaxError:
        return False
    return True


def mutations(fn, cls, lines, keywords):
    """The signature changes of fn; keywords are the keyword arguments
    calls of its name pass."""
    src = lines.src
    slots = slots_of(fn, lines)
    decos = {deco_name(d) for d in fn.decorator_list}
    bound = cls is not None and "staticmethod" not in decos
    params = [s for s in slots if s.name is not None]
    if bound and params and params[0].kind in ("posonly", "normal"):
        first = params[0]  # self / cls: never mutated
        params = params[1:]
    else:
        first = None
    named = [s for s in slots if s.name is not None]
    last = named[-1] if named else None
    pos = [s for s in slots if s.kind in ("posonly", "normal")]
    has_default = any(s.default for s in pos)
    var = next((s for s in slots if s.kind == "var"), None)
    star = next((s for s in slots if s.kind == "star"), None)
    kwonly = [s for s in slots if s.kind == "kwonly"]
    varkw = next((s for s in slots if s.kind == "varkw"), None)
    paren = open_paren(fn, lines)
    out = []

    def add(kind, edits):
        if valid(src, edits):
            out.append({"kind": kind, "edits": edits})

    def insert_after_last(text):
        # after the last slot, or right after "(" when there is none
        if slots:
            return {"off": slots[-1].end, "old": "", "new": ", " + text}
        return {"off": paren + 1, "old": "", "new": text}

    # A new required parameter: positional at the end when nothing
    # optional or variadic comes before; else keyword-only.
    if not has_default and var is None and star is None and not kwonly and varkw is None:
        add("add-required", [insert_after_last("ccd_extra")])
    elif var is not None or star is not None:
        if varkw is not None:
            add("add-required", [{"off": varkw.start, "old": "", "new": "ccd_extra, "}])
        else:
            add("add-required", [insert_after_last("ccd_extra")])
    else:
        if varkw is not None:
            add("add-required", [{"off": varkw.start, "old": "", "new": "*, ccd_extra, "}])
        else:
            add("add-required", [insert_after_last("*, ccd_extra")])

    # A new optional parameter: after the positional ones (keyword-only
    # when *args or * comes first, so that it takes no positional argument).
    if var is not None or star is not None:
        if varkw is not None:
            add("add-optional", [{"off": varkw.start, "old": "", "new": "ccd_extra=None, "}])
        else:
            add("add-optional", [insert_after_last("ccd_extra=None")])
    elif pos:
        add("add-optional", [{"off": pos[-1].end, "old": "", "new": ", ccd_extra=None"}])
    elif varkw is not None:
        add("add-optional", [{"off": varkw.start, "old": "", "new": "ccd_extra=None, "}])
    else:
        add("add-optional", [insert_after_last("ccd_extra=None")])

    # The last parameter removed (never self).
    if last is not None and last is not first:
        i = slots.index(last)
        j = i  # first slot removed
        # a * marker left with no keyword-only parameter after it goes too
        if last.kind == "kwonly" and len(kwonly) == 1 and star is not None:
            j = slots.index(star)
        if j > 0:
            old = src[slots[j - 1].end:last.end].decode("utf-8")
            add("remove-last", [{"off": slots[j - 1].end, "old": old, "new": keep_lines(old, "")}])
        else:
            # the only slot: remove it and a trailing comma
            end = last.end
            k = end
            while k < len(src) and src[k:k + 1] in (b" ", b"\t"):
                k += 1
            if src[k:k + 1] == b",":
                end = k + 1
            old = src[slots[0].start:end].decode("utf-8")
            add("remove-last", [{"off": slots[0].start, "old": old, "new": keep_lines(old, "")}])

    # Two adjacent positional parameters swapped: the last such pair that
    # agree on having a default.
    cand = [s for s in params if s.kind in ("posonly", "normal")]
    for a, b in reversed(list(zip(cand, cand[1:]))):
        if a.kind != b.kind or a.default != b.default or slots.index(b) != slots.index(a) + 1:
            continue
        at, bt = src[a.start:a.end].decode("utf-8"), src[b.start:b.end].decode("utf-8")
        if "\n" in at or "\n" in bt:
            continue
        add("reorder", [{"off": a.start, "old": at, "new": bt}, {"off": b.start, "old": bt, "new": at}])
        break

    # A parameter renamed: one that calls pass by keyword, else the last
    # that could be.
    names = [s for s in params if s.kind in ("normal", "kwonly")]
    if names:
        pick = None
        for s in names:
            if s.name in keywords:
                pick = s
        if pick is None:
            pick = names[-1]
        arg = pick.arg
        off = lines.off(arg.lineno, arg.col_offset)
        add("rename", [{"off": off, "old": arg.arg, "new": arg.arg + "_ccd"}])
    return out


def cmd_list(root):
    files = py_files(root)
    trees = {}
    for rel in files:
        src = read(root, rel)
        try:
            trees[rel] = (ast.parse(src), Lines(src))
        except SyntaxError:
            continue
    # calls of each name, and the keywords they pass
    calls = {}
    keywords = {}
    for rel, (tree, _) in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                n = call_name(node)
                if n:
                    calls[n] = calls.get(n, 0) + 1
                    keywords.setdefault(n, set()).update(k.arg for k in node.keywords if k.arg)
    out = []
    for rel in files:
        base = rel.rsplit("/", 1)[-1]
        if rel not in trees or base.startswith("test_") or base == "__main__.py":
            continue
        tree, lines = trees[rel]
        for qual, cls, fn in functions(tree):
            decos = {deco_name(d) for d in fn.decorator_list}
            if decos - ALLOWED_DECORATORS:
                continue
            if fn.name.startswith("__") and fn.name.endswith("__") and fn.name != "__init__":
                continue
            short = fn.name
            n = calls.get(short, 0)
            kws = set(keywords.get(short, ()))
            if short == "__init__" and cls:
                n += calls.get(cls, 0)
                kws |= keywords.get(cls, set())
            muts = mutations(fn, cls, lines, kws)
            for m in muts:
                for e in m["edits"]:
                    e["file"] = rel
            out.append({"file": rel, "line": name_line(fn, lines), "name": qual, "short": short,
                        "cls": cls or "", "name_calls": n, "muts": muts})
    json.dump(out, sys.stdout)


def utf16_to_byte(line_bytes, col16):
    s = line_bytes.decode("utf-8", errors="surrogateescape")
    units = 0
    for i, ch in enumerate(s):
        if units >= col16:
            return len(s[:i].encode("utf-8", errors="surrogateescape"))
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line_bytes)


def cmd_attribute(root):
    req = json.load(sys.stdin)
    t = req["target"]
    names = {t["short"]}
    if t["short"] == "__init__" and t.get("cls"):
        names.add(t["cls"])
    parsed = {}

    def calls_in(rel):
        if rel not in parsed:
            src = read(root, rel)
            lines = Lines(src)
            tree = ast.parse(src)
            cs = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    cs.append(node)
            parsed[rel] = (lines, cs, tree)
        return parsed[rel]

    breaks = {}
    other = []
    for d in req["diags"]:
        rel = d["file"]
        lines, calls, tree = calls_in(rel)
        sl, el = d["sl"] + 1, d["el"] + 1
        start = (sl, utf16_to_byte(lines.text(sl), d["sc"]))
        end = (el, utf16_to_byte(lines.text(el), d["ec"]))
        best = None
        inner = None  # innermost call of any name
        for c in calls:
            cs = (c.lineno, c.col_offset)
            ce = (c.end_lineno, c.end_col_offset)
            if cs <= start and end <= ce:
                if inner is None or (cs >= (inner.lineno, inner.col_offset) and ce <= (inner.end_lineno, inner.end_col_offset)):
                    inner = c
                if call_name(c) in names:
                    if best is None or (cs >= (best.lineno, best.col_offset) and ce <= (best.end_lineno, best.end_col_offset)):
                        best = c
        # A new arity error (reportCallIssue) at a call of another name is
        # the mutation's doing too (only the target changed): a call through
        # an alias of it (get_invocation = self._format_action_invocation)
        # or of a subclass inheriting it (Compat32() for
        # _PolicyBase.__init__). Argument type errors are not taken so: they
        # may be about the function passed as a value.
        via = None
        if best is None and inner is not None and d.get("rule") == "reportCallIssue":
            best, via = inner, call_name(inner) or "?"
        if best is not None:
            key = (rel, best.lineno, best.col_offset)
            site = breaks.get(key)
            if site is None:
                nl = best.func.end_lineno if isinstance(best.func, ast.Attribute) else best.func.lineno
                site = {"file": rel, "line": best.lineno, "errors": []}
                if nl != best.lineno:
                    site["name_line"] = nl
                if via:
                    site["via"] = via
                breaks[key] = site
            site["errors"].append(d["message"])
            continue
        where = "elsewhere"
        if rel == t["file"]:
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == t["short"] and node.lineno <= t["line"] <= node.end_lineno:
                    if node.lineno <= sl <= node.end_lineno:
                        where = "definition"
        other.append({"file": rel, "line": sl, "message": d["message"], "where": where})
    json.dump({"breaks": list(breaks.values()), "other": other}, sys.stdout)


def main():
    cmd, root = sys.argv[1], sys.argv[2]
    if cmd == "list":
        cmd_list(root)
    elif cmd == "attribute":
        cmd_attribute(root)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
