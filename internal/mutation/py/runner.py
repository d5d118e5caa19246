"""Run unittest modules from a corpus tree, one JSON line per event.

usage: python3 -S runner.py --root ROOT --modules m1,m2 --tests test_m1,test_m2
                            --out FILE [--only IDS_FILE] [--profile]

The corpus's copies of the modules shadow the standard library's: ROOT
goes first on sys.path and nothing is imported before it is (not even
unittest, which imports difflib and pprint). Events:

  {"module": name, "file": path}           where each corpus module came from
  {"import_error": test_module, "error": s}
  {"start": id}
  {"test": id, "outcome": o, "file": f, "qual": q, "line": n}
      o: pass, fail, error, skip, xfail, xpass
  {"fixture": description}                 setUpClass/setUpModule failed
  {"hit": id or null, "path": [[file, line, qualname], ...]}
  {"called": [[file, firstlineno, qualname], ...]}   with --profile
  {"done": true}
"""
import sys
import os


def parse_args(argv):
    args = {"only": None, "profile": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--profile":
            args["profile"] = True
            i += 1
            continue
        args[a.lstrip("-")] = argv[i + 1]
        i += 2
    return args


def main():
    args = parse_args(sys.argv[1:])
    root = os.path.abspath(args["root"])
    modules = args["modules"].split(",")
    tests = args["tests"].split(",")
    helper_dir = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [root, helper_dir]
    for m in modules + tests:
        sys.modules.pop(m, None)

    import json
    out = open(args["out"], "w", buffering=1)

    def emit(ev):
        out.write(json.dumps(ev) + "\n")

    import _ccd_mutant
    _ccd_mutant.emit = emit
    _ccd_mutant.root = root + os.sep

    called = set()
    if args["profile"]:
        prefix = root + os.sep

        def prof(frame, event, arg):
            if event == "call":
                co = frame.f_code
                if co.co_filename.startswith(prefix):
                    called.add(co)
        sys.setprofile(prof)
        import threading
        threading.setprofile(prof)

    only = None
    if args["only"]:
        with open(args["only"]) as f:
            only = set(l.strip() for l in f if l.strip())

    import importlib
    import unittest

    loaded = []
    for t in tests:
        try:
            loaded.append((t, importlib.import_module(t)))
        except BaseException as e:  # a mutant can break the import
            emit({"import_error": t, "error": repr(e)[:300]})
    for m in modules:
        mod = sys.modules.get(m)
        if mod is not None:
            emit({"module": m, "file": getattr(mod, "__file__", None)})

    def flatten(suite):
        for t in suite:
            if isinstance(t, unittest.TestSuite):
                yield from flatten(t)
            else:
                yield t

    def where(test):
        fn = getattr(test, getattr(test, "_testMethodName", ""), None)
        fn = getattr(fn, "__func__", fn)
        while hasattr(fn, "__wrapped__"):
            fn = fn.__wrapped__
        co = getattr(fn, "__code__", None)
        if co is None:
            return None, None, None
        return co.co_filename, fn.__qualname__, co.co_firstlineno

    class Result(unittest.TestResult):
        def record(self, test, outcome):
            file, qual, line = where(test)
            emit({"test": test.id(), "outcome": outcome, "file": file, "qual": qual, "line": line})

        def startTest(self, test):
            super().startTest(test)
            _ccd_mutant.current = test.id()
            emit({"start": test.id()})

        def stopTest(self, test):
            super().stopTest(test)
            _ccd_mutant.current = None

        def addSuccess(self, test):
            super().addSuccess(test)
            if test.id() not in self.subfail:
                self.record(test, "pass")

        def addFailure(self, test, err):
            self.record(test, "fail")

        def addError(self, test, err):
            if isinstance(test, unittest.suite._ErrorHolder):
                emit({"fixture": test.description})
            else:
                self.record(test, "error")

        def addSkip(self, test, reason):
            self.record(test, "skip")

        def addExpectedFailure(self, test, err):
            self.record(test, "xfail")

        def addUnexpectedSuccess(self, test):
            self.record(test, "xpass")

        def addSubTest(self, test, subtest, err):
            if err is not None and test.id() not in self.subfail:
                self.subfail.add(test.id())
                self.record(test, "fail")

    for name, mod in loaded:
        suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
        keep = [t for t in flatten(suite)
                if type(t).__name__ not in ("DocTestCase", "DocFileCase", "SkipDocTestCase")
                and (only is None or t.id() in only)]
        result = Result()
        result.subfail = set()
        unittest.TestSuite(keep).run(result)

    if args["profile"]:
        sys.setprofile(None)
        emit({"called": sorted([co.co_filename, co.co_firstlineno, co.co_qualname] for co in called)})
    emit({"done": True})
    out.close()


if __name__ == "__main__":
    main()
