package scip_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/scip"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

var update = flag.Bool("update", false, "rewrite the scip snapshot goldens in testdata/scip/")

// tool finds a SCIP tool that scripts/install-scip.sh installs: in
// CCD_SCIP_PATH, in <module root>/.tools/scip/bin, then in PATH. Missing,
// it skips the test unless CCD_REQUIRE_LSP is set (as in CI), when it
// fails.
func tool(t testing.TB, name string) string {
	t.Helper()
	dirs := filepath.SplitList(os.Getenv("CCD_SCIP_PATH"))
	if abs, err := filepath.Abs("../../.tools/scip/bin"); err == nil {
		dirs = append(dirs, abs)
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	msg := fmt.Sprintf("%s not found (run scripts/install-scip.sh)", name)
	if os.Getenv("CCD_REQUIRE_LSP") == "" {
		t.Skip(msg + "; set CCD_REQUIRE_LSP=1 to make this a failure")
	}
	t.Fatal(msg)
	return ""
}

func run(t testing.TB, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// build indexes a fixture repository.
func build(t testing.TB, fixture string) (string, *index.Result) {
	t.Helper()
	dir := testrepo.Unpack(t, fixture)
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	return dir, res
}

// TestExportFixtures exports every graph fixture repository as SCIP and
// checks, with the real scip CLI, that the index lints clean, that its
// statistics are the export's, and that its snapshot is the golden one
// (testdata/scip/NAME.txtar; -update rewrites them).
func TestExportFixtures(t *testing.T) {
	scipBin := tool(t, "scip")
	paths, err := filepath.Glob("../../testdata/graph/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			dir, res := build(t, p)
			idx, st, err := scip.Export(dir, res.Graph, scip.ExportOptions{ToolVersion: "test"})
			if err != nil {
				t.Fatal(err)
			}
			b := idx.Marshal()
			idx2, _, _ := scip.Export(dir, res.Graph, scip.ExportOptions{ToolVersion: "test"})
			if !bytes.Equal(b, idx2.Marshal()) {
				t.Error("two exports of one graph differ")
			}
			if st.Definitions != len(res.Graph.Nodes) {
				t.Errorf("definitions = %d, want one per node (%d)", st.Definitions, len(res.Graph.Nodes))
			}
			file := filepath.Join(t.TempDir(), "index.scip")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if errs, known := lint(t, scipBin, file, idx); len(errs) > 0 {
				t.Errorf("scip lint:\n%s", strings.Join(errs, "\n"))
			} else {
				t.Logf("scip lint clean (%d reports of a relationship to a symbol of a later document, which is there)", known)
			}
			var stats struct{ Documents, Occurrences, Definitions int }
			if err := json.Unmarshal([]byte(run(t, dir, scipBin, "stats", "--from", file, "--project-root", dir)), &stats); err != nil {
				t.Fatal(err)
			}
			if stats.Documents != st.Documents || stats.Occurrences != st.Occurrences || stats.Definitions != st.Definitions {
				t.Errorf("scip stats %+v, export %+v", stats, st)
			}
			snap := filepath.Join(t.TempDir(), "snap")
			run(t, dir, scipBin, "snapshot", "--from", file, "--to", snap)
			got := readTree(t, snap)
			golden := filepath.Join("../../testdata/scip", name+".txtar")
			if *update {
				if err := os.WriteFile(golden, txtar.Format(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := txtar.ParseFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./core/scip -run TestExportFixtures -update)", err)
			}
			if g, w := txtar.Format(got), txtar.Format(want); !bytes.Equal(g, w) {
				t.Errorf("snapshot differs from %s (-update rewrites it):\n%s", golden, firstDiff(string(g), string(w)))
			}
		})
	}
}

// lintRelationship is how scip lint v0.5.2 reports a relationship whose
// target it has not seen yet: it checks each document's relationships
// right after adding that document's symbols, in map order, so a
// relationship to a symbol of another document is reported or not at
// random. lint verifies such a report against the index itself.
var lintRelationship = regexp.MustCompile(`has a relationship to '(.+)' \(#2\), but couldn't find #2 in external symbols or some other document`)

// lint runs the real scip lint on file (the index idx) and returns what
// it reports, less reports of the lint bug above whose target symbol the
// index does define (counted in known).
func lint(t testing.TB, scipBin, file string, idx *scip.Index) (errs []string, known int) {
	t.Helper()
	cmd := exec.Command(scipBin, "lint", file)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1 || len(out) == 0) {
		// Exit status 1 with reports is lint's "found something".
		t.Fatalf("scip lint %s: %v\n%s", file, err, out)
	}
	defined := map[string]bool{}
	for _, d := range idx.Documents {
		for _, s := range d.Symbols {
			defined[s.Symbol] = true
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m := lintRelationship.FindStringSubmatch(line); m != nil && defined[m[1]] {
			known++
			continue
		}
		errs = append(errs, line)
	}
	return errs, known
}

// readTree reads a directory's files into an archive, sorted by path.
func readTree(t testing.TB, dir string) *txtar.Archive {
	t.Helper()
	ar := &txtar.Archive{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		ar.Files = append(ar.Files, txtar.File{Name: filepath.ToSlash(rel), Data: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(ar.Files, func(i, j int) bool { return ar.Files[i].Name < ar.Files[j].Name })
	return ar
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, a, b)
		}
	}
	return ""
}

// TestExportNames checks hand-written expectations on the Go and Python
// fixtures: symbols, kinds, and where references land.
func TestExportNames(t *testing.T) {
	for _, tc := range []struct {
		fixture, file string
		line          int    // 1-based
		text          string // the occurrence's text
		symbol        string
		roles         int32
	}{
		{"go", "service/service.go", 22, "Save", "ccd gomod example.com/shop . store/`repo.go`/Repo#Save().", 0},
		{"go", "service/service.go", 20, "Add", "ccd gomod example.com/shop . service/`service.go`/Service#Add().", scip.RoleDefinition},
		{"go", "service/service.go", 4, "example.com/shop/store", "ccd gomod example.com/shop . store/`repo.go`/", scip.RoleImport},
		{"go", "store/repo_test.go", 0, "TestSave", "ccd gomod example.com/shop . store/`repo_test.go`/TestSave().", scip.RoleDefinition | scip.RoleTest},
	} {
		t.Run(tc.fixture+"/"+tc.text, func(t *testing.T) {
			dir, res := build(t, "../../testdata/graph/"+tc.fixture+".txtar")
			idx, _, err := scip.Export(dir, res.Graph, scip.ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			var seen []string
			for _, d := range idx.Documents {
				if d.RelativePath != tc.file {
					continue
				}
				for _, o := range d.Occurrences {
					if o.Symbol != tc.symbol {
						continue
					}
					l := int(o.Range[0])
					text := lines[l][o.Range[1]:o.Range[2]]
					seen = append(seen, fmt.Sprintf("%d:%s roles %d", l+1, text, o.Roles))
					if text == tc.text && o.Roles == tc.roles && (tc.line == 0 || l+1 == tc.line) {
						return
					}
				}
			}
			t.Errorf("no occurrence of %q at %s:%d (%q, roles %d); occurrences of the symbol: %v", tc.symbol, tc.file, tc.line, tc.text, tc.roles, seen)
		})
	}
}

// TestRoundTrip exports each fixture's graph and imports the index back:
// the graph it gives has the same edges, and every call site the export
// placed is confirmed with confidence precise.
func TestRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/graph/*.txtar")
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			dir, res := build(t, p)
			g := res.Graph
			idx, st, err := scip.Export(dir, g, scip.ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			back, err := scip.Unmarshal(idx.Marshal())
			if err != nil {
				t.Fatal(err)
			}
			ref, ist := scip.Import(dir, g, res.Files, back, scip.ImportOptions{})
			if len(ref.Stale) != 0 {
				t.Errorf("round trip drops edges: %v", ref.Stale)
			}
			g2 := lsp.Apply(g, ref)
			if a, b := edgeSet(g, false), edgeSet(g2, false); a != b {
				t.Errorf("edges differ after the round trip:\n before %s\n after  %s", a, b)
			}
			precise := 0
			for i := range g2.NumEdges() {
				if e := g2.Edge(i); e.Confidence == graph.Precise {
					precise++
				}
			}
			calls := g.CountEdges(graph.Call) + g.CountEdges(graph.Ref)
			t.Logf("%d call/ref edges, %d precise after the round trip; export: %d references, %d unplaced; import: %+v", calls, precise, st.References, st.Unplaced, ist)
			if ist.Found == 0 || precise == 0 {
				t.Errorf("the round trip confirmed nothing: %+v", ist)
			}
			if ist.Added != 0 || ist.Redirected != 0 {
				t.Errorf("the round trip added or redirected edges: %+v", ist)
			}
		})
	}
}

// edgeSet prints a graph's call, reference and import edges.
func edgeSet(g *graph.Graph, withConf bool) string {
	var out []string
	for i := range g.NumEdges() {
		e := g.Edge(i)
		if e.Type == graph.Contains {
			continue
		}
		s := g.Nodes[e.From].ID + " -" + e.Type.String() + "-> " + g.Nodes[e.To].ID
		if withConf {
			s += " " + e.Confidence.String()
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// TestExportRealCorpora exports GOROOT/src and the Python standard library
// and lints both indexes with the real scip CLI: nothing is reported but
// the lint bug lint filters (after checking each report). -short skips it.
func TestExportRealCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("exports GOROOT/src and the Python stdlib (-short)")
	}
	scipBin := tool(t, "scip")
	var roots []string
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		roots = append(roots, filepath.Join(strings.TrimSpace(string(out)), "src"))
	} else {
		t.Fatalf("go env GOROOT: %v", err)
	}
	if out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output(); err == nil {
		roots = append(roots, strings.TrimSpace(string(out)))
	} else {
		t.Fatalf("python3 stdlib: %v", err)
	}
	for _, root := range roots {
		t.Run(filepath.Base(root), func(t *testing.T) {
			res, err := index.Build(root, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			idx, st, err := scip.Export(root, res.Graph, scip.ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "index.scip")
			if err := os.WriteFile(file, idx.Marshal(), 0o644); err != nil {
				t.Fatal(err)
			}
			res = nil
			errs, known := lint(t, scipBin, file, idx)
			if len(errs) > 0 {
				n := min(len(errs), 20)
				t.Errorf("scip lint: %d reports, the first %d:\n%s", len(errs), n, strings.Join(errs[:n], "\n"))
			}
			var stats struct{ Documents, Occurrences, Definitions int }
			if err := json.Unmarshal([]byte(run(t, root, scipBin, "stats", "--from", file, "--project-root", root)), &stats); err != nil {
				t.Fatal(err)
			}
			if stats.Documents != st.Documents || stats.Occurrences != st.Occurrences || stats.Definitions != st.Definitions {
				t.Errorf("scip stats %+v, export %+v", stats, st)
			}
			t.Logf("%s: %+v; lint: %d reports of the relationship-order bug, checked", root, st, known)
		})
	}
}
