"""ccd's test recorder for Python: run a project's unittest suites, each
test on its own, and write which functions every test entered.

usage: python3 recording.py ROOT OUT

ROOT is the project (put first on sys.path, and ROOT/src after it when
there is one); OUT gets one JSON object per
line:
  {"test": [file, qualname, line], "id": unittest id,
   "ran": [[file, first line, qualname], ...]}
  {"problem": text}
  {"done": n}
Files are relative to ROOT; code outside ROOT is not listed. Test modules
are found as unittest discovery finds them (test*.py and *_test.py).
Code run by setUpClass/setUpModule counts for every test of the class
whose first test it preceded.

pytest-style tests (test* functions of test modules, test* methods of
Test* classes that are not unittest.TestCase) run without pytest when
they need no fixture (no parameter); setup_function/teardown_function and
setup_method/teardown_method run around them as pytest would. A test that
needs fixtures is reported as a problem and not recorded.
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
    src = os.path.join(root, "src")
    if os.path.isdir(src):
        sys.path.insert(1, src)  # the src/ layout: packages under ROOT/src
    os.chdir(root)
    # The project's own modules come from ROOT even when one is named like
    # a module this script (or unittest) imported already.
    for name in list(sys.modules):
        if "." not in name and any(os.path.isfile(os.path.join(d, name + ".py")) or
                                   os.path.isfile(os.path.join(d, name, "__init__.py")) for d in (root, src)):
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
    run_plain(root, prefix, state, tracer, emit, seen_ids)
    emit({"done": len(seen_ids)})


def test_modules(root):
    skip = {"__pycache__", "node_modules", "site-packages", ".codecanvas"}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".py") and (f.startswith("test") or f.endswith("_test.py")):
                yield os.path.join(dirpath, f)


def load_module(root, path):
    import importlib
    import importlib.util
    rel = os.path.relpath(path, root)[:-3]
    name = rel.replace(os.sep, ".")
    try:
        return importlib.import_module(name)
    except Exception:
        pass
    # As pytest's default import mode does: the file's directory first.
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location("_ccd_" + name.replace(".", "_"), path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.pop(0)


def needs_fixtures(fn, bound):
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True
    if bound:
        params = params[1:]
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in params)


def run_plain(root, prefix, state, tracer, emit, seen_ids):
    import inspect
    for path in test_modules(root):
        state["codes"] = set()
        try:
            mod = load_module(root, path)
        except BaseException as e:
            emit({"problem": "import %s: %s: %s" % (os.path.relpath(path, root), type(e).__name__, e)})
            continue
        cases = []
        for name, obj in sorted(vars(mod).items()):
            if not name.startswith("test"):
                continue
            if inspect.isfunction(obj) and obj.__module__ == mod.__name__:
                cases.append((None, obj))
        for cname, cls in sorted(vars(mod).items()):
            if (not cname.startswith("Test") or not inspect.isclass(cls) or cls.__module__ != mod.__name__
                    or issubclass(cls, unittest.TestCase) or "__init__" in vars(cls)):
                continue
            for name, fn in sorted(vars(cls).items()):
                if name.startswith("test") and inspect.isfunction(fn):
                    cases.append((cls, fn))
        for cls, fn in cases:
            co = fn.__code__
            if not co.co_filename.startswith(prefix):
                continue
            w = [os.path.relpath(co.co_filename, root), fn.__qualname__, co.co_firstlineno]
            if inspect.iscoroutinefunction(fn) or inspect.isgeneratorfunction(fn):
                emit({"problem": "%s::%s: async or generator test, not recorded" % (w[0], w[1])})
                continue
            if needs_fixtures(fn, cls is not None):
                emit({"problem": "%s::%s needs pytest fixtures: not recorded" % (w[0], w[1])})
                continue
            state["codes"] = set()
            sys.settrace(tracer)
            threading.settrace(tracer)
            try:
                if cls is None:
                    setup, teardown = getattr(mod, "setup_function", None), getattr(mod, "teardown_function", None)
                    if setup:
                        setup(fn)
                    try:
                        fn()
                    finally:
                        if teardown:
                            teardown(fn)
                else:
                    inst = cls()
                    if hasattr(inst, "setup_method"):
                        inst.setup_method(getattr(inst, fn.__name__))
                    try:
                        getattr(inst, fn.__name__)()
                    finally:
                        if hasattr(inst, "teardown_method"):
                            inst.teardown_method(getattr(inst, fn.__name__))
            except BaseException:
                pass  # a failing test still ran what it ran
            finally:
                sys.settrace(None)
                threading.settrace(None)
            codes, state["codes"] = state["codes"], set()
            tid = "%s::%s" % (w[0], w[1])
            if tid in seen_ids:
                continue
            seen_ids.add(tid)
            ran = sorted({(os.path.relpath(c.co_filename, root), c.co_firstlineno,
                           getattr(c, "co_qualname", c.co_name)) for c in codes})
            emit({"test": w, "id": tid, "ran": ran})


if __name__ == "__main__":
    main()
