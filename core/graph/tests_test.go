package graph_test

import (
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		// Go
		{"pkg/server_test.go", true},
		{"server_test.go", true},
		{"pkg/server.go", false},
		{"pkg/testing.go", false},
		{"pkg/testdata/x.go", false},
		{"pkg/latest.go", false},
		// Python
		{"tests/test_models.py", true},
		{"test_models.py", true},
		{"shop/models_test.py", true},
		{"tests/conftest.py", true},
		{"conftest.py", true},
		{"Test_Upper.py", true},
		{"shop/models.py", false},
		{"tests/helpers.py", false},
		{"test.py", false},
		{"tests.py", false},
		{"testing.py", false},
		{"contest.py", false},
		{"shop/attest_x.py", false},
		{"myconftest.py", false},
		// JS/TS
		{"src/app.test.js", true},
		{"src/app.test.ts", true},
		{"src/App.test.tsx", true},
		{"src/app.spec.ts", true},
		{"src/app.spec.js", true},
		{"src/__tests__/app.js", true},
		{"__tests__/app.ts", true},
		{"src/a/__tests__/b/c.tsx", true},
		{"src/app.js", false},
		{"src/latest.js", false},
		{"src/testutils.ts", false},
		{"src/__tests__helper/app.js", false},
		{"src/tests/app.js", false},
		// Java
		{"src/main/java/com/shop/CartTest.java", true},
		{"src/main/java/com/shop/CartTests.java", true},
		{"src/test/java/com/shop/Cart.java", true},
		{"src/test/java/com/shop/Fixtures.java", true},
		{"module/src/test/java/A.java", true},
		{"src/main/java/com/shop/Cart.java", false},
		{"src/main/java/com/shop/Contest.java", false},
		{"src/main/java/com/shop/TestData.java", false},
		{"src/testing/java/A.java", false},
		// Ruby
		{"spec/cart_spec.rb", true},
		{"test/cart_test.rb", true},
		{"test/test_cart.rb", true},
		{"lib/cart.rb", false},
		{"spec/spec_helper.rb", false},
		{"lib/latest.rb", false},
		// Rust
		{"tests/integration.rs", true},
		{"crate/tests/api.rs", true},
		{"src/lib.rs", false},
		{"src/tests.rs", false},
		{"src/testing/mod.rs", false},
		// C/C++
		{"tests/test_util.c", true},
		{"src/util_test.c", true},
		{"src/util_test.cpp", true},
		{"test_vec.cc", true},
		{"src/util.c", false},
		{"tests/util.h", false},
		{"src/testutil.c", false},
		// Shell and bats
		{"scripts/test_install.sh", true},
		{"scripts/install_test.sh", true},
		{"test/install.bats", true},
		{"install.bats", true},
		{"scripts/install.sh", false},
		{"scripts/retest.sh", false},
	}
	for _, tc := range tests {
		if got := graph.IsTestFile(tc.path); got != tc.want {
			t.Errorf("IsTestFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestIsTestFunc(t *testing.T) {
	tests := []struct {
		lang, file, name, class string
		decorators              []string
		want                    bool
		bases                   []string
	}{
		// Go: Test/Benchmark/Fuzz/Example in a _test.go file.
		{"go", "pkg/a_test.go", "TestAdd", "", nil, true, nil},
		{"go", "pkg/a_test.go", "BenchmarkAdd", "", nil, false, nil}, // runs only with -bench
		{"go", "pkg/a_test.go", "FuzzParse", "", nil, true, nil},
		{"go", "pkg/a_test.go", "ExampleAdd", "", nil, true, nil},
		{"go", "pkg/a_test.go", "Test", "", nil, true, nil},
		{"go", "pkg/a_test.go", "TestSuite", "Suite", nil, true, nil},
		{"go", "pkg/a_test.go", "helper", "", nil, false, nil},
		{"go", "pkg/a_test.go", "testHelper", "", nil, false, nil},
		{"go", "pkg/a.go", "TestAdd", "", nil, false, nil},
		{"go", "pkg/a.go", "BenchmarkAdd", "", nil, false, nil},
		{"go", "pkg/test_a.go", "TestAdd", "", nil, false, nil},
		// Python: test* functions in test files, test* methods of Test*,
		// *Test, *Tests classes.
		{"python", "tests/test_cart.py", "test_add", "", nil, true, nil},
		{"python", "tests/test_cart.py", "testAdd", "", nil, true, nil},
		{"python", "cart_test.py", "test_add", "", nil, true, nil},
		{"python", "tests/test_cart.py", "test_add", "TestCart", nil, true, nil},
		{"python", "tests/test_cart.py", "test_add", "CartTest", nil, true, nil},
		{"python", "tests/test_cart.py", "test_add", "CartTests", nil, true, nil},
		{"python", "tests/test_cart.py", "test_add", "Helper", nil, false, nil},
		// unittest: every test* method of a TestCase, whatever the class's
		// name or file.
		{"python", "Lib/test/test_fnmatch.py", "test_fnmatch", "FnmatchTestCase", nil, true, []string{"unittest.TestCase"}},
		{"python", "Lib/test/test_textwrap.py", "test_simple", "WrapTestCase", nil, true, []string{"BaseTestCase"}},
		{"python", "Lib/test/test_x.py", "test_y", "Checks", nil, true, []string{"unittest.IsolatedAsyncioTestCase"}},
		{"python", "pkg/checks.py", "test_y", "Checks", nil, true, []string{"TestCase"}},
		{"python", "pkg/checks.py", "test_y", "WrapTestCases", nil, true, nil},
		{"python", "pkg/checks.py", "helper", "WrapTestCase", nil, false, nil},
		{"python", "pkg/checks.py", "test_y", "Checks", nil, false, []string{"object"}},
		{"python", "tests/test_cart.py", "helper", "", nil, false, nil},
		{"python", "tests/test_cart.py", "add", "TestCart", nil, false, nil},
		{"python", "tests/test_cart.py", "Test_add", "", nil, false, nil},
		{"python", "shop/cart.py", "test_add", "", nil, false, nil},
		{"python", "tests/conftest.py", "test_fixture_like", "", nil, true, nil},
		{"python", "tests/test_cart.py", "make_cart", "", []string{"pytest.fixture"}, false, nil},
		{"python", "tests/test_cart.py", "cases", "", []string{"pytest.mark.parametrize"}, false, nil},
		// Ruby: test_* in test files.
		{"ruby", "test/cart_test.rb", "test_add", "CartTest", nil, true, nil},
		{"ruby", "test/test_cart.rb", "test_add", "", nil, true, nil},
		{"ruby", "spec/cart_spec.rb", "test_add", "", nil, true, nil},
		{"ruby", "test/cart_test.rb", "setup", "CartTest", nil, false, nil},
		{"ruby", "test/cart_test.rb", "testadd", "", nil, false, nil},
		{"ruby", "lib/cart.rb", "test_add", "", nil, false, nil},
		// JS/TS
		{"javascript", "src/a.test.js", "testAdd", "", nil, true, nil},
		{"typescript", "src/a.spec.ts", "testAdd", "", nil, true, nil},
		{"tsx", "src/__tests__/a.tsx", "TestRender", "", nil, true, nil},
		{"javascript", "src/a.test.js", "render", "", nil, false, nil},
		{"javascript", "src/a.js", "testAdd", "", nil, false, nil},
		// Java: @Test and JUnit 5 variants, by decorator only.
		{"java", "src/test/java/CartTest.java", "addsItem", "CartTest", []string{"Test"}, true, nil},
		{"java", "src/main/java/Cart.java", "addsItem", "Cart", []string{"org.junit.Test"}, true, nil},
		{"java", "src/test/java/CartTest.java", "adds", "CartTest", []string{"ParameterizedTest", "ValueSource"}, true, nil},
		{"java", "src/test/java/CartTest.java", "again", "CartTest", []string{"RepeatedTest"}, true, nil},
		{"java", "src/test/java/CartTest.java", "dyn", "CartTest", []string{"TestFactory"}, true, nil},
		{"java", "src/test/java/CartTest.java", "tmpl", "CartTest", []string{"TestTemplate"}, true, nil},
		{"java", "src/test/java/CartTest.java", "testAdd", "CartTest", nil, false, nil},
		{"java", "src/test/java/CartTest.java", "setUp", "CartTest", []string{"BeforeEach"}, false, nil},
		{"java", "src/test/java/CartTest.java", "x", "CartTest", []string{"Override", "Deprecated"}, false, nil},
		// Rust: #[test], #[tokio::test] (reduced to tokio.test), rstest,
		// quickcheck.
		{"rust", "src/lib.rs", "adds", "", []string{"test"}, true, nil},
		{"rust", "src/lib.rs", "adds", "", []string{"tokio.test"}, true, nil},
		{"rust", "src/lib.rs", "adds", "", []string{"rstest"}, true, nil},
		{"rust", "src/lib.rs", "prop", "", []string{"quickcheck"}, true, nil},
		{"rust", "src/lib.rs", "adds", "", []string{"cfg"}, false, nil},
		{"rust", "tests/api.rs", "test_adds", "", nil, false, nil},
		{"rust", "src/lib.rs", "adds", "", []string{"derive", "inline"}, false, nil},
		// C/C++
		{"c", "tests/test_util.c", "test_add", "", nil, true, nil},
		{"c", "src/util_test.c", "TestAdd", "", nil, true, nil},
		{"cpp", "tests/test_vec.cc", "test_push", "", nil, true, nil},
		{"c", "tests/test_util.c", "setup", "", nil, false, nil},
		{"c", "src/util.c", "test_add", "", nil, false, nil},
		// bash and bats
		{"bash", "scripts/test_install.sh", "test_fresh", "", nil, true, nil},
		{"bash", "test/install.bats", "test_fresh", "", nil, true, nil},
		{"bash", "test/install.bats", "setup", "", nil, false, nil},
		{"bash", "scripts/install.sh", "test_fresh", "", nil, false, nil},
		// Unknown language: decorators only.
		{"kotlin", "src/test/kotlin/ATest.kt", "adds", "", nil, false, nil},
		{"kotlin", "src/test/kotlin/ATest.kt", "adds", "", []string{"Test"}, true, nil},
	}
	for _, tc := range tests {
		if got := graph.IsTestFunc(tc.lang, tc.file, tc.name, tc.class, tc.bases, tc.decorators); got != tc.want {
			t.Errorf("IsTestFunc(%q, %q, %q, %q, %q) = %v, want %v", tc.lang, tc.file, tc.name, tc.class, tc.decorators, got, tc.want)
		}
	}
}

// The C/shell `test_*` rule is applied to every language, so Go and Rust
// sources named test_*.go / test_*.rs count as test files although neither
// language treats them so (Go: only _test.go; Rust: tests/).
func TestIsTestFileLanguageSpecificPrefix(t *testing.T) {
	for _, p := range []string{"pkg/test_helpers.go", "src/test_utils.rs"} {
		if graph.IsTestFile(p) {
			t.Fatalf("regression: IsTestFile(%q) = true, want false: the test_* prefix rule (documented for "+
				"Python, Ruby, C/C++ and shell) also fires for %s", p, p[len(p)-3:])
		}
	}
}
