package benchmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func export(t *testing.T, js string) *Export {
	t.Helper()
	e, err := ParseExport(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestPickTarget(t *testing.T) {
	e := export(t, `{"nodes":[
{"id":"a.go","kind":"module","path":"a.go"},
{"id":"a_test.go","kind":"module","path":"a_test.go","test":true},
{"id":"a.go::Small","kind":"func","label":"Small","path":"a.go","start_line":1,"end_line":2},
{"id":"a.go::T.Big","kind":"func","label":"T.Big","path":"a.go","start_line":3,"end_line":9},
{"id":"a.go::Also","kind":"func","label":"Also","path":"a.go","start_line":10,"end_line":20},
{"id":"a_test.go::helper","kind":"func","label":"helper","path":"a_test.go","start_line":1,"end_line":9},
{"id":"x/testdata/b.go::F","kind":"func","label":"F","path":"x/testdata/b.go","start_line":1,"end_line":9},
{"id":"a.go::TestIt","kind":"func","label":"TestIt","path":"a.go","start_line":30,"end_line":40,"test":true},
{"id":"a.go::Zed","kind":"func","label":"Zed","path":"a.go","start_line":50,"end_line":60},
{"id":"a_test.go::checkA","kind":"func","label":"checkA","path":"a_test.go","start_line":20,"end_line":22},
{"id":"a_test.go::checkB","kind":"func","label":"checkB","path":"a_test.go","start_line":23,"end_line":25},
{"id":"lib/test/support.py::run","kind":"func","label":"run","path":"lib/test/support.py","start_line":1,"end_line":9},
{"id":"tests/h.py::go","kind":"func","label":"go","path":"tests/h.py","start_line":1,"end_line":9}
],"edges":[
{"from":"lib/test/support.py::run","to":"a.go::Zed","type":"call"},
{"from":"tests/h.py::go","to":"a.go::Zed","type":"call"},
{"from":"a.go::TestIt","to":"a.go::Zed","type":"call"},
{"from":"a_test.go::checkA","to":"a.go::Zed","type":"call"},
{"from":"a_test.go::checkB","to":"a.go::Zed","type":"call"},
{"from":"a.go","to":"a.go::T.Big","type":"contains"},
{"from":"a.go::Also","to":"a.go::T.Big","type":"call"},
{"from":"a.go::TestIt","to":"a.go::T.Big","type":"call"},
{"from":"a.go::TestIt","to":"a.go::Also","type":"call"},
{"from":"a.go::T.Big","to":"a.go::Also","type":"call"},
{"from":"a.go::T.Big","to":"a.go::Small","type":"call"},
{"from":"a.go::Also","to":"a.go::Small","type":"call"},
{"from":"a.go::TestIt","to":"a.go::Small","type":"call"},
{"from":"a.go::TestIt","to":"a_test.go::helper","type":"call"},
{"from":"a.go::Also","to":"a_test.go::helper","type":"call"},
{"from":"a.go::T.Big","to":"a_test.go::helper","type":"call"},
{"from":"a.go::Small","to":"a_test.go::helper","type":"call"},
{"from":"a.go::TestIt","to":"x/testdata/b.go::F","type":"call"},
{"from":"a.go::Also","to":"x/testdata/b.go::F","type":"call"},
{"from":"a.go::T.Big","to":"x/testdata/b.go::F","type":"call"},
{"from":"a.go::Small","to":"x/testdata/b.go::F","type":"call"}
]}`)
	// Small has 3 callers but a two-line body; the test-file helper and the
	// testdata function have 4; Zed has 5, all from tests (two from
	// helpers under test directories); Big and Also
	// have one caller each from non-test code, and the smaller id wins.
	got, err := PickTarget(e)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "a.go::Also" || got.Callers != 2 || got.FromCode != 1 || got.Name != "Also" {
		t.Errorf("target %s (%d callers, %d from code, name %q), want a.go::Also with 2, 1", got.ID, got.Callers, got.FromCode, got.Name)
	}
	if f := e.Files(); !slices.Equal(f, []string{"a.go", "a_test.go"}) {
		t.Errorf("Files = %v", f)
	}
	// Qualified labels give the last part as the name to search for.
	e.Edges = append(e.Edges, e.Edges[6], e.Edges[6]) // Also → T.Big
	if got, _ := PickTarget(e); got.ID != "a.go::T.Big" || got.Name != "Big" {
		t.Errorf("target %s name %q, want a.go::T.Big, Big", got.ID, got.Name)
	}
}

func TestPickTargetNeedsCallers(t *testing.T) {
	e := export(t, `{"nodes":[{"id":"a.py::f","kind":"func","label":"f","path":"a.py","start_line":1,"end_line":9}],"edges":[]}`)
	if _, err := PickTarget(e); err == nil || !strings.Contains(err.Error(), "no function called from non-test code") {
		t.Errorf("err = %v", err)
	}
	if _, err := ParseExport(strings.NewReader("{nodes")); err == nil {
		t.Error("bad export: no error")
	}
}

func TestCopyTree(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	files := map[string]string{
		"a.py":                          "x = 1\n",
		"pkg/b.py":                      "y = 2\n",
		"site-packages/dep/c.py":        "third party\n",
		"pkg/__pycache__/b.cpython.pyc": "bytecode",
	}
	for p, s := range files {
		full := filepath.Join(src, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o444); err != nil { // read-only, as in GOROOT
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../a.py", filepath.Join(src, "pkg", "link.py")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	n, err := copyTree(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len("x = 1\n")+len("y = 2\n")) {
		t.Errorf("copied %d bytes", n)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "pkg", "b.py")); err != nil || string(b) != "y = 2\n" {
		t.Errorf("pkg/b.py: %q %v", b, err)
	}
	// The copy must be writable: edits happen there.
	if err := os.WriteFile(filepath.Join(dst, "a.py"), []byte("edited"), 0o644); err != nil {
		t.Errorf("copy not writable: %v", err)
	}
	for _, gone := range []string{"site-packages", "pkg/__pycache__"} {
		if _, err := os.Stat(filepath.Join(dst, gone)); !os.IsNotExist(err) {
			t.Errorf("%s copied (%v)", gone, err)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, "pkg", "link.py")); err != nil || target != "../a.py" {
		t.Errorf("symlink: %q %v", target, err)
	}
}
