package index

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
)

// TestUpdateEqualsRebuild applies random sequences of creates, edits,
// renames, deletes, new nested directories, ignore-file changes and
// touches to every fixture repository, updating the index incrementally
// after each step, and checks that the result is exactly what a clean
// Build of the same tree produces. Two chains of results follow the same
// tree: one updated by UpdateFiles whenever it accepts the hint (else
// Update), one by Update only, so both carry their resolver state from
// step to step as the daemon's results do.
func TestUpdateEqualsRebuild(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/graph/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	steps := 25
	if testing.Short() {
		steps = 8
	}
	// A pool of real source texts from all fixtures, to write into files.
	type text struct{ ext, data string }
	var pool []text
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "expect" && f.Name != "golden" && config.LanguageFor(f.Name) != nil {
				pool = append(pool, text{filepath.Ext(f.Name), string(f.Data)})
			}
		}
	}
	fastUsed := 0
	defer func() {
		if !t.Failed() && fastUsed == 0 {
			t.Errorf("UpdateFiles never accepted a hint: its equivalence went untested")
		}
	}()
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			seed := time.Now().UnixNano()
			rng := rand.New(rand.NewSource(seed))
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dir := extract(t, ar)
			cfg := config.Default()
			res, err := Build(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			fastRes, err := Build(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; step < steps; step++ {
				files := sourceFiles(t, dir)
				op, hint := mutate(t, rng, dir, files, func(ext string) string {
					var same []string
					for _, x := range pool {
						if x.ext == ext {
							same = append(same, x.data)
						}
					}
					if len(same) == 0 {
						return pool[rng.Intn(len(pool))].data
					}
					return same[rng.Intn(len(same))]
				})
				clean, err := Build(dir, cfg)
				if err != nil {
					t.Fatal(err)
				}
				// The walk-free path must agree whenever it accepts the hint.
				// It trusts hints to be complete (the daemon uses it only for
				// reported writes), so unreported edits are not its case.
				// UpdateFiles trusts hints to be complete (the daemon uses it
				// only for reported writes); when it refuses (an unreported
				// edit, a new file), the chain goes on with Update.
				how := "UpdateFiles"
				fast, _, ok, err := fastRes.UpdateFiles(hint)
				if err != nil {
					t.Fatalf("seed %d step %d (%s): UpdateFiles: %v", seed, step, op, err)
				}
				if ok {
					fastUsed++
				} else {
					how = "Update"
					if fast, _, err = fastRes.Update(hint); err != nil {
						t.Fatalf("seed %d step %d (%s): %v", seed, step, op, err)
					}
				}
				if got, want := fast.Graph.Text(), clean.Graph.Text(); got != want {
					t.Fatalf("seed %d step %d (%s, %s, %+v): graph differs from a clean build:\n%s", seed, step, op, how,
						fast.ResolveStats(), lineDiff(want, got))
				}
				if got, want := fast.Summary.String(), clean.Summary.String(); got != want {
					t.Fatalf("seed %d step %d (%s, %s): summary %q, clean %q", seed, step, op, how, got, want)
				}
				fastRes = fast
				next, st, err := res.Update(hint)
				if err != nil {
					t.Fatalf("seed %d step %d (%s): %v", seed, step, op, err)
				}
				if got, want := next.Graph.Text(), clean.Graph.Text(); got != want {
					t.Fatalf("seed %d step %d (%s, %s, %+v): incremental graph differs from a clean build:\n%s",
						seed, step, op, st, next.ResolveStats(), lineDiff(want, got))
				}
				if got, want := next.Summary.String(), clean.Summary.String(); got != want {
					t.Fatalf("seed %d step %d (%s): summary %q, clean build %q", seed, step, op, got, want)
				}
				res = next
			}
		})
	}
}

// sourceFiles lists the files under dir (relative, slash-separated).
func sourceFiles(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// mutate changes the tree at random and returns what it did and the paths
// a watcher would report.
func mutate(t *testing.T, rng *rand.Rand, dir string, files []string, textFor func(ext string) string) (string, []string) {
	t.Helper()
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	write := func(rel, data string) {
		if err := os.MkdirAll(filepath.Dir(abs(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs(rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pick := func() string { return files[rng.Intn(len(files))] }
	switch op := rng.Intn(8); {
	case op == 0 || len(files) == 0: // create a file next to an existing one
		ext := ".py"
		if len(files) > 0 {
			ext = filepath.Ext(pick())
		}
		rel := fmt.Sprintf("new_%d%s", rng.Intn(1000), ext)
		if len(files) > 0 {
			rel = filepath.ToSlash(filepath.Join(filepath.Dir(pick()), rel))
		}
		write(rel, textFor(ext))
		return "create " + rel, []string{rel}
	case op == 1: // replace a file's content with another source text
		rel := pick()
		write(rel, textFor(filepath.Ext(rel)))
		return "rewrite " + rel, []string{rel}
	case op == 2: // append to a file (may add definitions or syntax errors)
		rel := pick()
		f, _ := os.OpenFile(abs(rel), os.O_APPEND|os.O_WRONLY, 0)
		txt := textFor(filepath.Ext(rel))
		fmt.Fprintf(f, "\n%s\n", txt[:rng.Intn(min(60, len(txt))+1)])
		f.Close()
		return "append " + rel, []string{rel}
	case op == 3: // delete
		rel := pick()
		os.Remove(abs(rel))
		return "delete " + rel, []string{rel}
	case op == 4: // rename, maybe into a new nested directory
		rel := pick()
		to := filepath.ToSlash(filepath.Join(filepath.Dir(rel), fmt.Sprintf("moved%d", rng.Intn(100)), filepath.Base(rel)))
		if rng.Intn(2) == 0 {
			to = filepath.ToSlash(filepath.Join(filepath.Dir(rel), fmt.Sprintf("r%d_%s", rng.Intn(100), filepath.Base(rel))))
		}
		os.MkdirAll(filepath.Dir(abs(to)), 0o755)
		if err := os.Rename(abs(rel), abs(to)); err != nil {
			t.Fatal(err)
		}
		return "rename " + rel + " -> " + to, []string{rel, to}
	case op == 5: // ignore a file or directory, or stop ignoring
		rel := pick()
		gi := filepath.Join(dir, ".gitignore")
		if b, err := os.ReadFile(gi); err == nil && len(b) > 0 && rng.Intn(2) == 0 {
			os.Remove(gi)
			return "drop .gitignore", []string{".gitignore"}
		}
		pat := "/" + rel
		if strings.Contains(rel, "/") && rng.Intn(2) == 0 {
			pat = strings.SplitN(rel, "/", 2)[0] + "/"
		}
		os.WriteFile(gi, []byte(pat+"\n"), 0o644)
		return "ignore " + pat, []string{".gitignore"}
	case op == 6: // touch without change: must reuse the facts
		rel := pick()
		now := time.Now().Add(time.Duration(rng.Intn(1000)) * time.Second)
		os.Chtimes(abs(rel), now, now)
		return "touch " + rel, []string{rel}
	default: // an edit no watcher reported: a size change gives it away
		rel := pick()
		f, _ := os.OpenFile(abs(rel), os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, "\n\n")
		f.Close()
		return "unreported append " + rel, nil
	}
}

// TestSourceKeptForFollowers: an update keeps the content of the files it
// parsed (what their facts were made from) for whoever follows it; a
// first index keeps none, and files the update did not parse have none.
func TestSourceKeptForFollowers(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n"})
	res := build(t, root, testConfig())
	if _, ok := res.Source("a.py"); ok {
		t.Error("a first index kept content")
	}
	edits := []struct {
		name   string
		update func(*Result) (*Result, error)
	}{
		{"without a walk", func(r *Result) (*Result, error) {
			nr, _, ok, err := r.UpdateFiles([]string{"a.py"})
			if !ok && err == nil {
				t.Fatal("UpdateFiles declined a plain edit")
			}
			return nr, err
		}},
		{"with a walk", func(r *Result) (*Result, error) {
			nr, _, err := r.Update([]string{"a.py"})
			return nr, err
		}},
	}
	for i, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			content := fmt.Sprintf("def a():\n    return %d\n", 10+i)
			writeTree(t, root, map[string]string{"a.py": content})
			next, err := e.update(res)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := next.Source("a.py")
			if !ok || string(got) != content {
				t.Errorf("Source(a.py) = %q, %v; want the edited content", got, ok)
			}
			if _, ok := next.Source("b.py"); ok {
				t.Error("kept the content of a file the update did not parse")
			}
			res = next
		})
	}
}

// TestResultFile: a result finds a file's facts by path (its files are
// sorted), nil for a path it does not hold.
func TestResultFile(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n", "b/c.py": "def f():\n    pass\n", "d.go": "package d\n"})
	res := build(t, root, testConfig())
	for _, f := range res.Files {
		if got := res.File(f.Path); got != f {
			t.Errorf("File(%q) = %v, want its facts", f.Path, got)
		}
	}
	for _, p := range []string{"", "a", "b", "b/c", "e.py", "zz.go"} {
		if got := res.File(p); got != nil {
			t.Errorf("File(%q) = %v, want nil", p, got)
		}
	}
}
