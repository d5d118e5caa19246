package graph

import (
	"path"
	"strings"
)

// IsTestFile reports whether p is a test file by the conventions of its
// language: Go `_test.go` only; Rust files under `tests/` only; Python
// `test_*.py`, `*_test.py`, `conftest.py`; JS/TS `*.test.*`, `*.spec.*`,
// `__tests__/`; Java `*Test.java`, `*Tests.java`, `*IT.java`, `src/test/`;
// Ruby `*_spec.rb`, `*_test.rb`, `test_*.rb`; C/C++ and shell `test_*`,
// `*_test.*`, `*.bats`.
func IsTestFile(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	lower := strings.ToLower(stem)
	switch ext {
	case ".go":
		// Go: only _test.go files are tests.
		return strings.HasSuffix(base, "_test.go")
	case ".rs":
		// Rust: integration tests live under tests/.
		return strings.HasPrefix(p, "tests/") || strings.Contains("/"+path.Dir(p)+"/", "/tests/")
	}
	switch {
	case strings.HasPrefix(lower, "test_"), strings.HasSuffix(lower, "_test"), strings.HasSuffix(lower, "_spec"):
		return true
	case strings.Contains(base, ".test.") || strings.Contains(base, ".spec."):
		return true
	case base == "conftest.py", ext == ".bats":
		return true
	case ext == ".java" && (strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT")):
		return true
	}
	dirs := "/" + path.Dir(p) + "/"
	if strings.Contains(dirs, "/__tests__/") || strings.Contains(dirs, "/src/test/") {
		return true
	}
	return false
}

// IsTestFunc reports whether a function is a test the language's runner
// runs: by its name (Go Test*/Fuzz*/Example* in a test file — benchmarks
// run only with -bench, so they are not; pytest and Ruby test_*), its
// decorators (Java @Test, Rust #[test]), or its class: pytest's Test*
// classes and every test* method of a unittest.TestCase subclass,
// whatever the class is called (its bases, as written, end in TestCase, or
// its own name does: FnmatchTestCase, WrapTestCases).
func IsTestFunc(lang, file, name, class string, bases, decorators []string) bool {
	for _, d := range decorators {
		last := d[strings.LastIndex(d, ".")+1:]
		switch last {
		case "test", "Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "rstest", "quickcheck":
			return true
		}
	}
	inTestFile := IsTestFile(file)
	switch lang {
	case "go":
		if !strings.HasSuffix(file, "_test.go") {
			return false
		}
		for _, p := range []string{"Test", "Fuzz", "Example"} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
	case "python":
		if !strings.HasPrefix(name, "test") {
			return false
		}
		if class == "" {
			return inTestFile
		}
		if IsTestCaseClass(class, bases) {
			return true
		}
		// pytest collects the test* methods of Test* classes; unittest-style
		// XTest / XTests names are test classes too.
		return inTestFile && (strings.HasPrefix(class, "Test") || strings.HasSuffix(class, "Test") || strings.HasSuffix(class, "Tests"))
	case "ruby":
		return inTestFile && strings.HasPrefix(name, "test_")
	case "javascript", "typescript", "tsx", "c", "cpp", "bash":
		return inTestFile && (strings.HasPrefix(name, "test") || strings.HasPrefix(name, "Test"))
	}
	return false
}

// IsTestCaseClass reports whether a Python class is a unittest test case:
// its name ends in TestCase or TestCases, or a base does (unittest.TestCase,
// IsolatedAsyncioTestCase, a project's BaseTestCase).
func IsTestCaseClass(class string, bases []string) bool {
	if strings.HasSuffix(class, "TestCase") || strings.HasSuffix(class, "TestCases") {
		return true
	}
	for _, b := range bases {
		b = b[strings.LastIndex(b, ".")+1:]
		if strings.HasSuffix(b, "TestCase") || strings.HasSuffix(b, "TestCases") {
			return true
		}
	}
	return false
}
