package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

func rec(path string, calls int) Record {
	f := &facts.File{Path: path, Lang: "python", Hash: "h" + path,
		Defs: []facts.Def{{Name: "f", Qual: "f", Kind: facts.Func, Parent: -1, StartLine: 1, EndLine: 2}}}
	for i := 0; i < calls; i++ {
		f.Calls = append(f.Calls, facts.Call{Name: "g", Caller: 0, Line: i + 1})
	}
	return Record{Facts: f, Size: int64(10 * calls), MTime: 42}
}

func TestRoundTrip(t *testing.T) {
	root := t.TempDir()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	m := Meta{Version: "1.2.3", Generation: 7, Head: "abc", Config: "digest"}
	if err := s.Save(m, []Record{rec("a.py", 2), rec("b.py", 3)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(m, []Record{rec("c.py", 1)}, []string{"a.py"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, recs, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != "1.2.3" || got.Generation != 7 || got.Head != "abc" || got.Config != "digest" || got.Schema != Schema {
		t.Errorf("meta: %+v", got)
	}
	paths := map[string]Record{}
	for _, r := range recs {
		paths[r.Facts.Path] = r
	}
	if len(recs) != 2 || paths["b.py"].Facts == nil || paths["c.py"].Facts == nil || paths["a.py"].Facts != nil {
		t.Fatalf("records: %v", paths)
	}
	if b := paths["b.py"]; len(b.Facts.Calls) != 3 || b.Size != 30 || b.MTime != 42 || b.Facts.Defs[0].Qual != "f" {
		t.Errorf("b.py round trip: %+v", b)
	}
}

func TestUnusableDatabaseIsMovedAside(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, p string) { os.WriteFile(p, []byte(strings.Repeat("not a database ", 500)), 0o600) }},
		{"truncated", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:3*4096], 0o600) // metas and freelist only
		}},
		{"newer schema", func(t *testing.T, p string) {
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put([]byte("schema"), []byte("99")) })
			db.Close()
		}},
		{"empty file", func(t *testing.T, p string) { os.WriteFile(p, nil, 0o600) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			s, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			s.Save(Meta{Config: "d"}, []Record{rec("a.py", 50)}, nil)
			path := s.Path
			s.Close()
			c.spoil(t, path)
			s, err = Open(root)
			if c.name == "empty file" && err == nil {
				// bbolt initialises an empty file; that is fine too.
				s.Close()
				return
			}
			if !IsMovedAside(err) || s == nil {
				t.Fatalf("want the db moved aside and a fresh store, got %v (store %v)", err, s)
			}
			defer s.Close()
			if _, recs, err := s.Load(); err != nil || len(recs) != 0 {
				t.Errorf("fresh store: %d records, %v", len(recs), err)
			}
			aside, _ := filepath.Glob(path + ".bad-*")
			if len(aside) != 1 {
				t.Errorf("moved-aside file not found: %v", aside)
			}
			if !strings.Contains(err.Error(), "rebuilding") {
				t.Errorf("message should say what happens: %v", err)
			}
		})
	}
}

func TestExcludedFromGit(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte("# git ls-files --others --exclude-from=.git/info/exclude\n*.tmp"), 0o644)
	for i := 0; i < 2; i++ {
		s, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	b, _ := os.ReadFile(filepath.Join(root, ".git", "info", "exclude"))
	if got := strings.Count(string(b), ".codecanvas/"); got != 1 || !strings.Contains(string(b), "*.tmp\n.codecanvas/\n") {
		t.Errorf("exclude file:\n%s", b)
	}
}

func TestGraphRoundTrip(t *testing.T) {
	nodes := []*graph.Node{
		{ID: "a.py", Kind: graph.Module, Name: "a.py", Path: "a.py", Lang: "python", Test: true},
		{ID: "a.py::f", Kind: graph.Func, Name: "f", Qual: "f", Path: "a.py", Lang: "python", StartLine: 1, EndLine: 3, Signature: "def f()", Owner: "x"},
		{ID: "b.py::g", Kind: graph.Func, Name: "g", Qual: "g", Path: "b.py", Lang: "python", StartLine: 2, EndLine: 4},
	}
	g := graph.New(nodes, []graph.EdgeSpec{
		{From: "a.py", To: "a.py::f", Type: graph.Contains},
		{From: "a.py::f", To: "b.py::g", Type: graph.Call, Confidence: graph.Resolved, Line: 2},
		{From: "a.py::f", To: "b.py::g", Type: graph.Call, Confidence: graph.NameMatch, Line: 3},
		{From: "a.py", To: "b.py::g", Type: graph.Import, Confidence: graph.Resolved, Line: 1, Spec: "b"},
	})
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fp, g0, err := s.LoadGraph(); fp != "" || g0 != nil || err != nil {
		t.Fatalf("empty store: %q %v %v", fp, g0, err)
	}
	if err := s.SaveGraph("fp1", g); err != nil {
		t.Fatal(err)
	}
	fp, got, err := s.LoadGraph()
	if err != nil || fp != "fp1" {
		t.Fatalf("%q %v", fp, err)
	}
	if got.Text() != g.Text() || len(got.Out(1)) != len(g.Out(1)) || got.Node("b.py::g") == nil {
		t.Fatalf("graph round trip:\n%s\nwant\n%s", got.Text(), g.Text())
	}
	b := encodeGraph(g)
	for i := 0; i < len(b); i++ {
		if _, err := decodeGraph(b[:i]); err == nil {
			t.Fatalf("truncated graph of %d/%d bytes decoded", i, len(b))
		}
	}
}

func TestBlobRoundTripSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.Blob("board"); err != nil || b != nil {
		t.Fatalf("empty store: %q %v", b, err)
	}
	if err := s.PutBlob("board", []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBlob("board", []byte(`{"v":2}`)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b, err := s.Blob("board"); err != nil || string(b) != `{"v":2}` {
		t.Fatalf("after reopen: %q %v", b, err)
	}
}

// TestOpenLockedIsInUse: a database another process holds (here: another
// open file description, as a second daemon would have) is reported in
// use and left where it is, never moved aside as unusable.
func TestOpenLockedIsInUse(t *testing.T) {
	root := t.TempDir()
	s1, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := Open(root)
	var inUse *ErrInUse
	if s2 != nil || !errors.As(err, &inUse) {
		t.Fatalf("second open: store %v, err %v; want ErrInUse", s2, err)
	}
	if IsMovedAside(err) {
		t.Fatalf("a locked database was moved aside: %v", err)
	}
	if inUse.PID != os.Getpid() {
		t.Errorf("holder pid %d, want this process %d: %v", inUse.PID, os.Getpid(), err)
	}
	bad, _ := filepath.Glob(filepath.Join(root, Dir, "ccd.db.bad-*"))
	if len(bad) > 0 {
		t.Fatalf("moved aside: %v", bad)
	}
}

// TestFileChangedWhileMapped: truncating, replacing or deleting the
// database file while the store has it mapped must not fault (SIGBUS
// killed the daemon on its next save): the store notices and reopens.
func TestFileChangedWhileMapped(t *testing.T) {
	m := Meta{Version: "1", Generation: 1, Config: "digest"}
	var many []Record
	for i := 0; i < 400; i++ {
		many = append(many, rec(fmt.Sprintf("f%03d.py", i), 30))
	}
	for _, c := range []struct {
		name   string
		change func(path string) error
	}{
		{"truncated", func(p string) error { return os.Truncate(p, 3*4096) }},
		{"replaced", func(p string) error {
			os.Remove(p)
			return os.WriteFile(p, []byte("not a database"), 0o600)
		}},
		{"deleted", os.Remove},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			s, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Save(m, many, nil); err != nil {
				t.Fatal(err)
			}
			if err := c.change(s.Path); err != nil {
				t.Fatal(err)
			}
			// Each of these read the mapping past the change before.
			epoch := s.Epoch()
			err = s.Save(m, many[:10], nil)
			if c.name == "deleted" {
				// Not made again: an error, no crash, no file.
				if err == nil {
					t.Fatalf("save after the file was deleted: no error")
				}
				if _, serr := os.Stat(s.Path); !os.IsNotExist(serr) {
					t.Fatalf("the deleted database was made again")
				}
				return
			}
			if err != nil {
				t.Fatalf("save after the file %s: %v", c.name, err)
			}
			if s.Epoch() == epoch {
				t.Errorf("the store reopened another file and its epoch did not change")
			}
			if _, recs, err := s.Load(); err != nil || len(recs) != 10 {
				t.Fatalf("load after the file %s: %d records, %v", c.name, len(recs), err)
			}
			if err := s.PutBlob("board", []byte("{}")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
