"""Calls observed at run time, as an oracle's extra edges.

usage: python3 [-S] pyruntime.py ROOT DRIVER   (-S for the unittest drivers)

ROOT holds the analysed package (ROOT/<pkg>/...), which shadows any
installed copy: ROOT goes first on sys.path and nothing of the package is
imported before. DRIVER says what to run:

  unittest:MODULE   the unittest tests of MODULE (test.test_json, ...)
  jedi              jedi completing and inferring over the package's own
                    files (jedi drives parso's parser, tree and diff parser)

Every Python call from code under ROOT to code under ROOT is recorded as
(call-site file, the caller's current line, callee file, the callee's
first line) with kind "runtime": what really ran. Calls through C (a
sorted key, a map function) count from the line of the C call, as ccd's
edges for them do; a property read or a `with` counts from its line.
Prints one JSON object in the oracles' format.
"""
import json
import os
import sys
import threading


def main():
    root = os.path.abspath(sys.argv[1])
    driver = sys.argv[2]
    prefix = root + os.sep
    sys.path.insert(0, root)
    pkgs = [d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))]
    for name in list(sys.modules):
        if name.split(".")[0] in pkgs:
            del sys.modules[name]

    seen = set()

    def prof(frame, event, arg):
        if event != "call":
            return
        co = frame.f_code
        if not co.co_filename.startswith(prefix):
            return
        back = frame.f_back
        if back is None or not back.f_code.co_filename.startswith(prefix):
            return
        seen.add((back.f_code.co_filename, back.f_lineno, co.co_filename, co.co_firstlineno, co.co_name))

    errors = []
    out = sys.stdout
    sys.stdout = sys.stderr  # the tests' own output
    sys.setprofile(prof)
    threading.setprofile(prof)
    try:
        if driver.startswith("unittest:"):
            import unittest
            suite = unittest.defaultTestLoader.loadTestsFromName(driver[len("unittest:"):])
            result = unittest.TestResult()
            suite.run(result)
            errors += ["%s: %s" % (t.id(), e.strip().splitlines()[-1]) for t, e in result.errors[:20]]
        elif driver == "jedi":
            import jedi
            for dirpath, _, files in os.walk(root):
                for f in sorted(files):
                    if not f.endswith(".py"):
                        continue
                    path = os.path.join(dirpath, f)
                    with open(path) as fh:
                        code = fh.read()
                    script = jedi.Script(code, path=path)
                    lines = code.splitlines()
                    for i in range(0, len(lines), 7):
                        col = len(lines[i].rstrip())
                        try:
                            script.infer(i + 1, max(col - 1, 0))
                            script.complete(i + 1, col)
                        except Exception as e:
                            errors.append("%s:%d: %s" % (f, i + 1, e))
                    # an edit, for the diff parser
                    script = jedi.Script(code + "\nx = 1\n", path=path)
                    script.complete(len(lines) + 2, 5)
        else:
            raise SystemExit("unknown driver %r" % driver)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    edges = []
    for caller, line, callee, first, name in sorted(seen):
        edges.append({"file": os.path.relpath(caller, root), "line": line,
                      "callee_file": os.path.relpath(callee, root), "callee_line": first,
                      "callee_name": name, "kind": "runtime"})
    files = sorted({e["file"] for e in edges} | {e["callee_file"] for e in edges})
    json.dump({"tool": "runtime trace (Python %s, %s)" % (sys.version.split()[0], driver), "root": root,
               "files": files, "edges": edges, "counts": {"runtime": len(edges)}, "errors": errors[:50]}, out)


if __name__ == "__main__":
    main()
