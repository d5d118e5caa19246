package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/daemon/cli"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// testVersion is stamped into the binary built for the end-to-end tests.
const testVersion = "v9.9.9-clitest"

var binDir string // temporary directory of the built ccd binary

func TestMain(m *testing.M) {
	flag.Parse()
	d, err := os.MkdirTemp("", "ccd-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = d
	// A private state directory: no daemon of the machine answers these
	// tests, and tests that start one cannot disturb anything else.
	os.Setenv("CCD_HOME", filepath.Join(d, "state"))
	os.Unsetenv("CCD_SOCKET")
	os.Unsetenv("XDG_RUNTIME_DIR")
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// repoRoot is the module root, relative to this package's directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	return root
}

func goTool(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no go tool: %v", err)
	}
	return p
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// ccdBinary builds ./daemon/ccd once per test run (with Version stamped by
// -ldflags) and returns its path.
func ccdBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binPath = filepath.Join(binDir, "ccd")
		cmd := exec.Command(goTool(t), "build",
			"-ldflags", "-X github.com/ccd-dev/ccd/daemon/wire.Version="+testVersion,
			"-o", binPath, "./daemon/ccd")
		cmd.Dir = repoRoot(t)
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./daemon/ccd: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

// result is one command run.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout ---\n%s--- stderr ---\n%s", r.code, r.stdout, r.stderr)
}

// run runs the command line in-process.
func run(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, &out, &errb)
	return result{out.String(), errb.String(), code}
}

// runOK runs the command line in-process and fails unless it exits 0.
func runOK(t *testing.T, args ...string) result {
	t.Helper()
	r := run(t, args...)
	if r.code != 0 {
		t.Fatalf("ccd %s: want exit 0, got\n%s", strings.Join(args, " "), r)
	}
	return r
}

// runBin runs the built binary.
func runBin(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(ccdBinary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run ccd %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return result{out.String(), errb.String(), code}
}

// extract writes an archive's files (all but the expect/golden sections)
// into a new temporary directory.
func extract(t testing.TB, ar *txtar.Archive) string {
	t.Helper()
	return testrepo.Write(t, ar, t.TempDir())
}

func readArchive(t testing.TB, name string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join(repoRoot(t), "testdata", "graph", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

// pyFixture extracts testdata/graph/python.txtar into a new directory.
func pyFixture(t testing.TB) string {
	t.Helper()
	return extract(t, readArchive(t, "python"))
}

func archiveSection(ar *txtar.Archive, name string) (string, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// writeTree writes files (slash paths → content) into a new directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Export schema, as documented in README.md "Graph export schema".

type exportNode struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	Qual      string `json:"qual"`
	Path      string `json:"path"`
	Lang      string `json:"lang"`
	StartLine *int   `json:"start_line"`
	EndLine   *int   `json:"end_line"`
	Signature string `json:"signature"`
	Owner     string `json:"owner"`
	Test      *bool  `json:"test"`
	// Go build constraints
	Build      string `json:"build"`
	OtherBuild *bool  `json:"other_build"`
}

type exportEdge struct {
	From       string  `json:"from"`
	To         string  `json:"to"`
	Type       string  `json:"type"`
	Confidence *string `json:"confidence"`
	Lines      []int   `json:"lines"`
	Spec       string  `json:"spec"`
}

type exportGraph struct {
	Nodes []exportNode `json:"nodes"`
	Edges []exportEdge `json:"edges"`
}

// decodeExport decodes an export strictly: unknown fields and trailing data
// are errors.
func decodeExport(t testing.TB, data []byte) exportGraph {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var g exportGraph
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("export is not valid JSON in the documented schema: %v", err)
	}
	if dec.More() {
		t.Fatalf("export: data after the JSON object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	if len(top) != 2 || top["nodes"] == nil || top["edges"] == nil {
		keys := []string{}
		for k := range top {
			keys = append(keys, k)
		}
		t.Fatalf("export: want exactly the keys nodes and edges, got %v", keys)
	}
	return g
}

var confidences = map[string]bool{"name-match": true, "inferred": true, "resolved": true, "lsp": true, "precise": true}

// checkExport checks an export against the documented schema and returns
// the decoded graph. With root set, it also checks that every path names a
// file under root and that lines lie inside those files.
func checkExport(t testing.TB, data []byte, root string) exportGraph {
	t.Helper()
	g := decodeExport(t, data)
	checkLayout(t, data, len(g.Nodes), len(g.Edges))
	if len(g.Nodes) == 0 {
		t.Fatal("export has no nodes")
	}
	nlines := map[string]int{} // file → number of lines, when root is set
	fileLines := func(p string) int {
		if n, ok := nlines[p]; ok {
			return n
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("path %q: not a file under %s: %v", p, root, err)
		}
		n := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			n++
		}
		nlines[p] = n
		return n
	}
	byID := map[string]*exportNode{}
	errs := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if byID[n.ID] != nil {
			fail("duplicate node id %q", n.ID)
		}
		byID[n.ID] = n
		p := n.Path
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) ||
			p != filepath.ToSlash(filepath.Clean(p)) || p == ".." || strings.HasPrefix(p, "../") {
			fail("node %q: path %q is not a clean relative slash path", n.ID, p)
		}
		if n.Label == "" {
			fail("node %q: empty label", n.ID)
		}
		if n.Test != nil && !*n.Test {
			fail("node %q: test is present but false", n.ID)
		}
		switch n.Kind {
		case "module":
			if n.ID != n.Path {
				fail("module %q: id is not its path %q", n.ID, n.Path)
			}
			if n.StartLine != nil || n.EndLine != nil {
				fail("module %q: start_line/end_line must be absent", n.ID)
			}
		case "class", "func":
			if n.Qual == "" {
				fail("%s %q: empty qual", n.Kind, n.ID)
			}
			if !strings.HasPrefix(n.ID, n.Path+"::"+n.Qual) {
				fail("%s %q: id is not path::qual (%s::%s)", n.Kind, n.ID, n.Path, n.Qual)
			}
			if n.StartLine == nil || n.EndLine == nil || *n.StartLine < 1 || *n.EndLine < *n.StartLine {
				fail("%s %q: bad lines %v-%v (want 1-based start <= end)", n.Kind, n.ID, n.StartLine, n.EndLine)
			} else if root != "" && *n.EndLine > fileLines(n.Path) {
				fail("%s %q: end_line %d beyond the %d lines of %s", n.Kind, n.ID, *n.EndLine, fileLines(n.Path), n.Path)
			}
		default:
			fail("node %q: kind %q not in module|class|func", n.ID, n.Kind)
		}
		if root != "" && n.Kind == "module" {
			fileLines(n.Path)
		}
	}
	type key struct{ from, to, typ string }
	seen := map[key]bool{}
	for _, e := range g.Edges {
		from, to := byID[e.From], byID[e.To]
		if from == nil || to == nil {
			fail("edge %s %s -> %s: endpoint is not a node id", e.Type, e.From, e.To)
			continue
		}
		k := key{e.From, e.To, e.Type}
		if seen[k] {
			fail("duplicate edge %s %s -> %s", e.Type, e.From, e.To)
		}
		seen[k] = true
		switch e.Type {
		case "contains":
			if e.Confidence != nil {
				fail("contains %s -> %s: has a confidence %q", e.From, e.To, *e.Confidence)
			}
			if to.Kind == "module" {
				fail("contains %s -> %s: a module is contained", e.From, e.To)
			}
		case "call", "import", "ref":
			if e.Confidence == nil || !confidences[*e.Confidence] {
				fail("%s %s -> %s: confidence %v not in name-match|inferred|resolved|lsp|precise", e.Type, e.From, e.To, e.Confidence)
			}
			if e.Type == "import" && (from.Kind != "module" || to.Kind != "module") {
				fail("import %s -> %s: not between modules", e.From, e.To)
			}
		default:
			fail("edge %s -> %s: type %q not in call|ref|import|contains", e.From, e.To, e.Type)
		}
		for j, l := range e.Lines {
			if l < 1 {
				fail("%s %s -> %s: line %d is not 1-based", e.Type, e.From, e.To, l)
			}
			if j > 0 && l <= e.Lines[j-1] {
				fail("%s %s -> %s: lines %v not increasing", e.Type, e.From, e.To, e.Lines)
			}
			if root != "" && l > fileLines(from.Path) {
				fail("%s %s -> %s: line %d beyond the %d lines of %s", e.Type, e.From, e.To, l, fileLines(from.Path), from.Path)
			}
		}
	}
	if errs > 20 {
		t.Errorf("... %d more schema errors", errs-20)
	}
	return g
}

// checkLayout checks the documented layout: one object, one node or edge
// per line.
func checkLayout(t testing.TB, data []byte, nodes, edges int) {
	t.Helper()
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Errorf("export does not end with a newline")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := nodes + edges + 3
	if len(lines) != want {
		t.Fatalf("export has %d lines, want %d (one per node and edge plus 3)", len(lines), want)
	}
	if lines[0] != `{"nodes":[` || lines[nodes+1] != `],"edges":[` || lines[len(lines)-1] != `]}` {
		t.Errorf("export layout: got %q, %q, %q around the sections", lines[0], lines[nodes+1], lines[len(lines)-1])
	}
	for i, l := range lines {
		if i == 0 || i == nodes+1 || i == len(lines)-1 {
			continue
		}
		last := i == nodes || i == len(lines)-2
		if !strings.HasPrefix(l, "{") || (last && !strings.HasSuffix(l, "}")) || (!last && !strings.HasSuffix(l, "},")) {
			t.Errorf("export line %d is not one object: %.200s", i+1, l)
			return
		}
	}
}

// nodeLines counts the node lines of an export without decoding it (for
// large exports).
func nodeLines(t testing.TB, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	n := -1
	for sc.Scan() {
		if sc.Text() == `],"edges":[` {
			return n
		}
		n++
	}
	t.Fatalf("%s: no edges section (%v)", path, sc.Err())
	return 0
}

// sections splits impact text output into its headed sections: the header
// line of each ("Callers (3):") maps to the lines under it.
type section struct {
	head  string
	lines []string
}

func impactSections(out string) []section {
	var secs []section
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		switch {
		case l == "":
		case !strings.HasPrefix(l, " "):
			secs = append(secs, section{head: l})
		case isColumnHeader(l):
		case len(secs) > 0:
			secs[len(secs)-1].lines = append(secs[len(secs)-1].lines, l)
		}
	}
	return secs
}

// isColumnHeader reports whether l is the column header of an impact
// section ("  CALLER   CALL SITES   CONFIDENCE"), or the tests' "run:" line.
func isColumnHeader(l string) bool {
	f := strings.Fields(l)
	return len(f) > 0 && (f[0] == "CALLER" || f[0] == "CALLEE" || f[0] == "HOPS" || f[0] == "TEST" || f[0] == "run:")
}

// hasLine reports whether some line matches the regular expression.
func hasLine(lines []string, re string) bool {
	rx := regexp.MustCompile(re)
	for _, l := range lines {
		if rx.MatchString(l) {
			return true
		}
	}
	return false
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
