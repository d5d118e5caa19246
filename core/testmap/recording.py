"""ccd's test recorder for Python: run a project's unittest suites, each
test on its own, and write which functions every test entered.

usage: python3 recording.py ROOT OUT

ROOT is the project (put first on sys.path); OUT gets one JSON object per
line:
  {"test": [file, qualname, line], "id": unittest id,
   "ran": [[file, first line, qualname], ...]}
  {"problem": text}
  {"done": n}
Files are relative to ROOT; code outside ROOT is not listed. Test modules
are found as unittest discovery finds them (test*.py and *_test.py).
Code run by setUpClass/setUpModule counts for every test of the class
whose first test it preceded.
"""
import json
import os
import sys
import threading
import unittest


def main():
    root = os.path.abspath(sys.argv[1])
    out = open(sys.argv[2], "w", buffering=1)
    prefix = root + os.sep
    sys.path.insert(0, root)
    os.chdir(root)
    # The project's own modules come from ROOT even when one is named like
    # a module this script (or unittest) imported already.
    for name in list(sys.modules):
        if "." not in name and (os.path.isfile(os.path.join(root, name + ".py")) or
                                os.path.isfile(os.path.join(root, name, "__init__.py"))):
            del sys.modules[name]

    def emit(ev):
        out.write(json.dumps(ev) + "\n")

    state = {"codes": set()}

    def tracer(frame, event, arg):
        co = frame.f_code
        if co.co_filename.startswith(prefix):
            state["codes"].add(co)
        return None

    loader = unittest.TestLoader()
    suites = []
    seen_ids = set()
    for pattern in ("test*.py", "*_test.py"):
        try:
            suites.append(loader.discover(root, pattern=pattern, top_level_dir=root))
        except Exception as e:  # a broken package layout: say so, go on
            emit({"problem": "discover %s: %s: %s" % (pattern, type(e).__name__, e)})
    for err in getattr(loader, "errors", []):
        emit({"problem": "import: " + err.strip().splitlines()[-1]})

    def where(test):
        name = getattr(test, "_testMethodName", None)
        if not name:
            return None
        fn = getattr(type(test), name, None)
        fn = getattr(fn, "__func__", fn)
        while hasattr(fn, "__wrapped__"):
            fn = fn.__wrapped__
        co = getattr(fn, "__code__", None)
        if co is None or not co.co_filename.startswith(prefix):
            return None
        return [os.path.relpath(co.co_filename, root), fn.__qualname__, co.co_firstlineno]

    fixtures = {}

    class Result(unittest.TestResult):
        def startTest(self, test):
            pending = state["codes"]
            cls = type(test)
            if pending and cls not in fixtures:
                fixtures[cls] = pending
            state["codes"] = set(fixtures.get(cls, ()))
            super().startTest(test)

        def stopTest(self, test):
            super().stopTest(test)
            codes, state["codes"] = state["codes"], set()
            w = where(test)
            if w is None or test.id() in seen_ids:
                return
            seen_ids.add(test.id())
            ran = sorted({(os.path.relpath(c.co_filename, root), c.co_firstlineno,
                           getattr(c, "co_qualname", c.co_name)) for c in codes})
            emit({"test": w, "id": test.id(), "ran": ran})

    result = Result()
    sys.settrace(tracer)
    threading.settrace(tracer)
    try:
        for s in suites:
            s.run(result)
    finally:
        sys.settrace(None)
        threading.settrace(None)
    emit({"done": len(seen_ids)})


if __name__ == "__main__":
    main()
