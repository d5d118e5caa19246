package index

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/resolve"
)

var editSeeds = flag.Int("edit-seeds", 6, "seeds per fixture for TestIncrementalEdits")

// corpus is every fixture's source text, by extension: what edits copy
// lines, definitions and imports from.
type corpus struct {
	byExt  map[string][]string // file texts
	idents []string
}

var identRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

func loadCorpus(t *testing.T, paths []string) *corpus {
	c := &corpus{byExt: map[string][]string{}}
	seen := map[string]bool{}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "expect" || f.Name == "golden" || config.LanguageFor(f.Name) == nil {
				continue
			}
			ext := filepath.Ext(f.Name)
			c.byExt[ext] = append(c.byExt[ext], string(f.Data))
			for _, id := range identRe.FindAllString(string(f.Data), -1) {
				if !seen[id] && len(id) > 2 {
					seen[id] = true
					c.idents = append(c.idents, id)
				}
			}
		}
	}
	return c
}

// Lines that start a definition, an import or a package clause, in any of
// the fixture languages.
var (
	defLine    = regexp.MustCompile(`^\s*(export\s+)?(pub\s+)?(async\s+)?(def|func|fn|function|class|struct|interface|impl|module|trait|enum|public|private|protected|static|void|int|type)\b`)
	importLine = regexp.MustCompile(`^\s*(import|from|use|mod|#include|require|require_relative|source|\.)\b`)
	pkgLine    = regexp.MustCompile(`^package\s+\w+`)
)

// edit is one kind of change an editor makes to a file's text.
type edit struct {
	name string
	fn   func(rng *rand.Rand, c *corpus, ext string, lines []string) []string
}

func pickLine(rng *rand.Rand, lines []string, re *regexp.Regexp) int {
	var idx []int
	for i, l := range lines {
		if re.MatchString(l) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return -1
	}
	return idx[rng.Intn(len(idx))]
}

func foreignLines(rng *rand.Rand, c *corpus, ext string) []string {
	texts := c.byExt[ext]
	if len(texts) == 0 {
		return nil
	}
	return strings.Split(texts[rng.Intn(len(texts))], "\n")
}

var indented = regexp.MustCompile(`^\s+\S`)

var edits = []edit{
	{"comment", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// Lines move, nothing else: the commonest save.
		at := rng.Intn(len(lines) + 1)
		return append(lines[:at:at], append([]string{""}, lines[at:]...)...)
	}},
	{"body-dup", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// Repeat a statement inside a body (a call made twice, a binding redone).
		i := pickLine(rng, lines, indented)
		if i < 0 || defLine.MatchString(lines[i]) {
			return lines
		}
		return append(lines[:i+1:i+1], append([]string{lines[i]}, lines[i+1:]...)...)
	}},
	{"body-foreign", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// A statement from another file lands in a body (new calls).
		i := pickLine(rng, lines, indented)
		src := foreignLines(rng, c, ext)
		j := pickLine(rng, src, indented)
		if i < 0 || j < 0 || defLine.MatchString(src[j]) {
			return lines
		}
		ind := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
		return append(lines[:i+1:i+1], append([]string{ind + strings.TrimLeft(src[j], " \t")}, lines[i+1:]...)...)
	}},
	{"delete-lines", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		i := rng.Intn(len(lines))
		n := 1 + rng.Intn(3)
		return append(lines[:i:i], lines[min(len(lines), i+n):]...)
	}},
	{"rename-def", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// Rename a definition everywhere in the file, or only at its
		// definition (its uses now name nothing, or something else).
		i := pickLine(rng, lines, defLine)
		if i < 0 {
			return lines
		}
		ids := identRe.FindAllString(lines[i], -1)
		if len(ids) < 2 {
			return lines
		}
		old := ids[1+rng.Intn(len(ids)-1)]
		repl := c.idents[rng.Intn(len(c.idents))]
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(old) + `\b`)
		if rng.Intn(2) == 0 {
			lines[i] = re.ReplaceAllString(lines[i], repl)
			return lines
		}
		for k := range lines {
			lines[k] = re.ReplaceAllString(lines[k], repl)
		}
		return lines
	}},
	{"retarget-call", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// One identifier in a body becomes another (a call now names another
		// function, a receiver another variable).
		i := pickLine(rng, lines, indented)
		if i < 0 {
			return lines
		}
		locs := identRe.FindAllStringIndex(lines[i], -1)
		if len(locs) == 0 {
			return lines
		}
		l := locs[rng.Intn(len(locs))]
		lines[i] = lines[i][:l[0]] + c.idents[rng.Intn(len(c.idents))] + lines[i][l[1]:]
		return lines
	}},
	{"signature", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// A definition's parameters or result change.
		i := pickLine(rng, lines, defLine)
		src := foreignLines(rng, c, ext)
		j := pickLine(rng, src, defLine)
		if i < 0 || j < 0 {
			return lines
		}
		a, b := strings.Index(lines[i], "("), strings.Index(src[j], "(")
		if a < 0 || b < 0 {
			return lines
		}
		lines[i] = lines[i][:a] + src[j][b:]
		return lines
	}},
	{"add-def", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		// A definition copied from another file, with its body.
		src := foreignLines(rng, c, ext)
		j := pickLine(rng, src, defLine)
		if j < 0 {
			return lines
		}
		end := min(len(src), j+2+rng.Intn(8))
		at := rng.Intn(len(lines) + 1)
		if rng.Intn(2) == 0 {
			at = len(lines)
		}
		block := append([]string(nil), src[j:end]...)
		return append(lines[:at:at], append(block, lines[at:]...)...)
	}},
	{"remove-def", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		i := pickLine(rng, lines, defLine)
		if i < 0 {
			return lines
		}
		end := i + 1
		for end < len(lines) && (indented.MatchString(lines[end]) || strings.TrimSpace(lines[end]) == "}" ||
			strings.TrimSpace(lines[end]) == "end") {
			end++
		}
		return append(lines[:i:i], lines[end:]...)
	}},
	{"add-import", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		src := foreignLines(rng, c, ext)
		j := pickLine(rng, src, importLine)
		if j < 0 {
			return lines
		}
		at := 0
		if i := pickLine(rng, lines, importLine); i >= 0 {
			at = i + 1
		} else if len(lines) > 0 && pkgLine.MatchString(lines[0]) {
			at = 1
		}
		return append(lines[:at:at], append([]string{src[j]}, lines[at:]...)...)
	}},
	{"remove-import", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		i := pickLine(rng, lines, importLine)
		if i < 0 {
			return lines
		}
		return append(lines[:i:i], lines[i+1:]...)
	}},
	{"package", func(rng *rand.Rand, c *corpus, ext string, lines []string) []string {
		i := pickLine(rng, lines, pkgLine)
		if i < 0 {
			return lines
		}
		lines[i] = "package " + []string{"main", "other", "util", c.idents[rng.Intn(len(c.idents))]}[rng.Intn(4)]
		return lines
	}},
}

// TestIncrementalEdits makes editor-like changes (comments, body edits,
// signature edits, added, removed and renamed definitions, added and
// removed imports, Go package clauses, new, deleted and renamed files) to
// every fixture, one or a few files at a time, updates the index through
// UpdateFiles or Update, chaining the results as the daemon does, and
// checks each graph against a clean build. It also checks that the
// incremental paths ran: surface-preserving edits must resolve only the
// edited files, and others must use dependents rather than always
// resolving everything.
func TestIncrementalEdits(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/graph/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	c := loadCorpus(t, paths)
	steps := 40
	if testing.Short() {
		steps = 12
	}
	modes := map[string]int{}
	byEdit := map[string]int{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		for seed := int64(1); seed <= int64(*editSeeds); seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				runEdits(t, p, seed, steps, c, modes, byEdit)
			})
		}
	}
	t.Logf("resolution modes: %v; edits: %v", modes, byEdit)
	if modes["files"] == 0 || modes["dependents"] == 0 || modes["delta"] == 0 {
		t.Errorf("incremental paths not exercised: modes %v", modes)
	}
}

func runEdits(t *testing.T, archive string, seed int64, steps int, c *corpus, modes, byEdit map[string]int) {
	rng := rand.New(rand.NewSource(seed))
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	dir := extract(t, ar)
	cfg := config.Default()
	res, err := Build(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for step := 0; step < steps; step++ {
		files := sourceFiles(t, dir)
		var hint, ops []string
		for k := 1 + rng.Intn(2); k > 0 && len(files) > 0; k-- {
			rel := files[rng.Intn(len(files))]
			ext := filepath.Ext(rel)
			if config.LanguageFor(rel) == nil {
				continue
			}
			switch rng.Intn(14) {
			case 0: // a new file: a copy of another of the same language
				texts := c.byExt[ext]
				nrel := filepath.ToSlash(filepath.Join(filepath.Dir(rel), fmt.Sprintf("n%d%s", rng.Intn(50), ext)))
				writeFile(t, abs(nrel), texts[rng.Intn(len(texts))])
				hint, ops = append(hint, nrel), append(ops, "create "+nrel)
				byEdit["create"]++
				continue
			case 1:
				os.Remove(abs(rel))
				hint, ops = append(hint, rel), append(ops, "delete "+rel)
				byEdit["delete"]++
				continue
			case 2:
				to := filepath.ToSlash(filepath.Join(filepath.Dir(rel), "r"+filepath.Base(rel)))
				os.Rename(abs(rel), abs(to))
				hint, ops = append(hint, rel, to), append(ops, "rename "+rel)
				byEdit["rename"]++
				continue
			}
			data, err := os.ReadFile(abs(rel))
			if err != nil {
				continue
			}
			lines := strings.Split(string(data), "\n")
			e := edits[rng.Intn(len(edits))]
			if len(lines) > 0 {
				lines = e.fn(rng, c, ext, lines)
			}
			if os.Getenv("CCD_EDIT_DEBUG") != "" {
				t.Logf("step %d %s %s:\n%s", step, e.name, rel, lineDiff(string(data), strings.Join(lines, "\n")))
			}
			writeFile(t, abs(rel), strings.Join(lines, "\n"))
			hint, ops = append(hint, rel), append(ops, e.name+" "+rel)
			byEdit[e.name]++
		}
		clean, err := Build(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if rng.Intn(6) == 0 {
			// A warm start: the daemon restores facts and graph from its
			// store, without the resolver's tables.
			res = restored(res, rng.Intn(4) == 0)
			ops = append(ops, "(restored)")
		}
		next, _, ok, err := res.UpdateFiles(hint)
		if err != nil {
			t.Fatalf("seed %d step %d (%v): UpdateFiles: %v", seed, step, ops, err)
		}
		how := "UpdateFiles"
		if !ok {
			how = "Update"
			if next, _, err = res.Update(hint); err != nil {
				t.Fatalf("seed %d step %d (%v): %v", seed, step, ops, err)
			}
		}
		st := next.ResolveStats()
		if next.Graph != res.Graph {
			modes[st.Mode]++
			if st.Mode == "dependents" {
				modes["dependents-resolved"] += st.Resolved
				modes["dependents-of"] += len(next.Files)
			}
		}
		if got, want := next.Graph.Text(), clean.Graph.Text(); got != want {
			if again, _ := Build(dir, cfg); again.Graph.Text() != want {
				if d := os.Getenv("CCD_EDIT_KEEP"); d != "" {
					os.RemoveAll(d)
					exec.Command("cp", "-r", dir, d).Run()
				}
				t.Fatalf("seed %d step %d: two clean builds differ:\n%s", seed, step, lineDiff(want, again.Graph.Text()))
			}
			if d := os.Getenv("CCD_EDIT_KEEP"); d != "" {
				os.RemoveAll(d)
				exec.Command("cp", "-r", dir, d).Run()
			}
			t.Fatalf("seed %d step %d (%v, %s, %+v): graph differs from a clean build:\n%s", seed, step, ops, how, st,
				lineDiff(want, got))
		}
		if prev, files, ok := next.Delta(); ok {
			modes["delta"]++
			if prev != res.Graph {
				t.Fatalf("seed %d step %d (%v): Delta's graph is not the updated result's", seed, step, ops)
			}
			if got, want := prev.Splice(spliceParts(next.Graph, files)).Text(), next.Graph.Text(); got != want {
				t.Fatalf("seed %d step %d (%v, %+v): the graph is not the previous one spliced over %v:\n%s", seed, step, ops, st, files,
					lineDiff(want, got))
			}
		} else if st.Mode != "full" {
			t.Fatalf("seed %d step %d (%v): no delta after a %s update", seed, step, ops, st.Mode)
		}
		if got, want := next.Summary.String(), clean.Summary.String(); got != want {
			t.Fatalf("seed %d step %d (%v): summary %q, clean %q", seed, step, ops, got, want)
		}
		if len(ops) == 1 && strings.HasPrefix(ops[0], "comment") && st.Mode != "files" && next.Graph != res.Graph {
			if d := os.Getenv("CCD_EDIT_KEEP"); d != "" {
				os.RemoveAll(d)
				exec.Command("cp", "-r", dir, d).Run()
			}
			t.Errorf("seed %d step %d (%v): an edit that only moves lines resolved %+v, want only the file", seed, step, ops, st)
		}
		res = next
	}
}

// restored is what a warm start makes of r: its facts, stamps and graph
// (or no graph: none was saved) as a store returns them.
func restored(r *Result, noGraph bool) *Result {
	stamps := map[string][2]int64{}
	for _, f := range r.Files {
		size, mtime := r.Stamp(f.Path)
		stamps[f.Path] = [2]int64{size, mtime}
	}
	g, fp := r.Graph, r.Fingerprint()
	if noGraph {
		g, fp = nil, ""
	}
	return Restore(r.Root, r.cfg, r.Files, stamps, g, fp)
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var _ = resolve.Stats{}

// spliceParts returns files, g's nodes in them and the edges leaving
// those nodes: the arguments of a Splice that makes g.
func spliceParts(g *graph.Graph, files []string) ([]string, []*graph.Node, []graph.EdgeSpec) {
	var nodes []*graph.Node
	var specs []graph.EdgeSpec
	for _, p := range files {
		for _, i := range g.InFile(p) {
			nodes = append(nodes, g.Nodes[i])
			for _, k := range g.Out(i) {
				specs = g.AppendSpecs(specs, k)
			}
		}
	}
	return files, nodes, specs
}
