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
	}{
		// Go: Test/Benchmark/Fuzz/Example in a _test.go file.
		{"go", "pkg/a_test.go", "TestAdd", "", nil, true},
		{"go", "pkg/a_test.go", "BenchmarkAdd", "", nil, true},
		{"go", "pkg/a_test.go", "FuzzParse", "", nil, true},
		{"go", "pkg/a_test.go", "ExampleAdd", "", nil, true},
		{"go", "pkg/a_test.go", "Test", "", nil, true},
		{"go", "pkg/a_test.go", "TestSuite", "Suite", nil, true},
		{"go", "pkg/a_test.go", "helper", "", nil, false},
		{"go", "pkg/a_test.go", "testHelper", "", nil, false},
		{"go", "pkg/a.go", "TestAdd", "", nil, false},
		{"go", "pkg/a.go", "BenchmarkAdd", "", nil, false},
		{"go", "pkg/test_a.go", "TestAdd", "", nil, false},
		// Python: test* functions in test files, test* methods of Test*,
		// *Test, *Tests classes.
		{"python", "tests/test_cart.py", "test_add", "", nil, true},
		{"python", "tests/test_cart.py", "testAdd", "", nil, true},
		{"python", "cart_test.py", "test_add", "", nil, true},
		{"python", "tests/test_cart.py", "test_add", "TestCart", nil, true},
		{"python", "tests/test_cart.py", "test_add", "CartTest", nil, true},
		{"python", "tests/test_cart.py", "test_add", "CartTests", nil, true},
		{"python", "tests/test_cart.py", "test_add", "Helper", nil, false},
		{"python", "tests/test_cart.py", "helper", "", nil, false},
		{"python", "tests/test_cart.py", "add", "TestCart", nil, false},
		{"python", "tests/test_cart.py", "Test_add", "", nil, false},
		{"python", "shop/cart.py", "test_add", "", nil, false},
		{"python", "tests/conftest.py", "test_fixture_like", "", nil, true},
		{"python", "tests/test_cart.py", "make_cart", "", []string{"pytest.fixture"}, false},
		{"python", "tests/test_cart.py", "cases", "", []string{"pytest.mark.parametrize"}, false},
		// Ruby: test_* in test files.
		{"ruby", "test/cart_test.rb", "test_add", "CartTest", nil, true},
		{"ruby", "test/test_cart.rb", "test_add", "", nil, true},
		{"ruby", "spec/cart_spec.rb", "test_add", "", nil, true},
		{"ruby", "test/cart_test.rb", "setup", "CartTest", nil, false},
		{"ruby", "test/cart_test.rb", "testadd", "", nil, false},
		{"ruby", "lib/cart.rb", "test_add", "", nil, false},
		// JS/TS
		{"javascript", "src/a.test.js", "testAdd", "", nil, true},
		{"typescript", "src/a.spec.ts", "testAdd", "", nil, true},
		{"tsx", "src/__tests__/a.tsx", "TestRender", "", nil, true},
		{"javascript", "src/a.test.js", "render", "", nil, false},
		{"javascript", "src/a.js", "testAdd", "", nil, false},
		// Java: @Test and JUnit 5 variants, by decorator only.
		{"java", "src/test/java/CartTest.java", "addsItem", "CartTest", []string{"Test"}, true},
		{"java", "src/main/java/Cart.java", "addsItem", "Cart", []string{"org.junit.Test"}, true},
		{"java", "src/test/java/CartTest.java", "adds", "CartTest", []string{"ParameterizedTest", "ValueSource"}, true},
		{"java", "src/test/java/CartTest.java", "again", "CartTest", []string{"RepeatedTest"}, true},
		{"java", "src/test/java/CartTest.java", "dyn", "CartTest", []string{"TestFactory"}, true},
		{"java", "src/test/java/CartTest.java", "tmpl", "CartTest", []string{"TestTemplate"}, true},
		{"java", "src/test/java/CartTest.java", "testAdd", "CartTest", nil, false},
		{"java", "src/test/java/CartTest.java", "setUp", "CartTest", []string{"BeforeEach"}, false},
		{"java", "src/test/java/CartTest.java", "x", "CartTest", []string{"Override", "Deprecated"}, false},
		// Rust: #[test], #[tokio::test] (reduced to tokio.test), rstest,
		// quickcheck.
		{"rust", "src/lib.rs", "adds", "", []string{"test"}, true},
		{"rust", "src/lib.rs", "adds", "", []string{"tokio.test"}, true},
		{"rust", "src/lib.rs", "adds", "", []string{"rstest"}, true},
		{"rust", "src/lib.rs", "prop", "", []string{"quickcheck"}, true},
		{"rust", "src/lib.rs", "adds", "", []string{"cfg"}, false},
		{"rust", "tests/api.rs", "test_adds", "", nil, false},
		{"rust", "src/lib.rs", "adds", "", []string{"derive", "inline"}, false},
		// C/C++
		{"c", "tests/test_util.c", "test_add", "", nil, true},
		{"c", "src/util_test.c", "TestAdd", "", nil, true},
		{"cpp", "tests/test_vec.cc", "test_push", "", nil, true},
		{"c", "tests/test_util.c", "setup", "", nil, false},
		{"c", "src/util.c", "test_add", "", nil, false},
		// bash and bats
		{"bash", "scripts/test_install.sh", "test_fresh", "", nil, true},
		{"bash", "test/install.bats", "test_fresh", "", nil, true},
		{"bash", "test/install.bats", "setup", "", nil, false},
		{"bash", "scripts/install.sh", "test_fresh", "", nil, false},
		// Unknown language: decorators only.
		{"kotlin", "src/test/kotlin/ATest.kt", "adds", "", nil, false},
		{"kotlin", "src/test/kotlin/ATest.kt", "adds", "", []string{"Test"}, true},
	}
	for _, tc := range tests {
		if got := graph.IsTestFunc(tc.lang, tc.file, tc.name, tc.class, tc.decorators); got != tc.want {
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
