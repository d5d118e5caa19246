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

// IsTestFunc reports whether a function is a test by its language's
// conventions: its name (Go Test*/Benchmark*/Fuzz*/Example* in a test
// file, pytest and Ruby test_*), its decorators (Java @Test, Rust
// #[test]), or its enclosing test class (pytest Test* classes).
func IsTestFunc(lang, file, name, class string, decorators []string) bool {
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
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
	case "python":
		// pytest collects test* functions and the test* methods of test
		// classes (TestX, or unittest's XTest / XTests).
		return inTestFile && strings.HasPrefix(name, "test") && (class == "" ||
			strings.HasPrefix(class, "Test") || strings.HasSuffix(class, "Test") || strings.HasSuffix(class, "Tests"))
	case "ruby":
		return inTestFile && strings.HasPrefix(name, "test_")
	case "javascript", "typescript", "tsx", "c", "cpp", "bash":
		return inTestFile && (strings.HasPrefix(name, "test") || strings.HasPrefix(name, "Test"))
	}
	return false
}
