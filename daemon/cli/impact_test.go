package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// impactText runs impact in-process and splits its text into sections,
// checking that the five sections come in the documented order.
func impactText(t *testing.T, args ...string) (string, map[string]section) {
	t.Helper()
	r := runOK(t, append([]string{"impact"}, args...)...)
	if r.stderr != "" {
		t.Errorf("impact wrote to stderr: %q", r.stderr)
	}
	secs := impactSections(r.stdout)
	prefixes := []string{"Impact of ", "Callers (", "Callees (", "Blast radius (", "Affected tests ("}
	if len(secs) != len(prefixes) {
		t.Fatalf("impact: want %d sections, got %d:\n%s", len(prefixes), len(secs), r.stdout)
	}
	m := map[string]section{}
	for i, p := range prefixes {
		if !strings.HasPrefix(secs[i].head, p) {
			t.Fatalf("impact: section %d is %q, want %q…:\n%s", i, secs[i].head, p, r.stdout)
		}
		m[strings.TrimSuffix(strings.TrimSuffix(p, " ("), " ")] = secs[i]
	}
	return r.stdout, m
}

// names returns the first field (the symbol) of each section line, or the
// second for blast radius lines (after the depth).
func names(s section, field int) []string {
	var out []string
	for _, l := range s.lines {
		f := strings.Fields(l)
		if len(f) > field {
			out = append(out, f[field])
		}
	}
	return out
}

func TestImpactText(t *testing.T) {
	dir := pyFixture(t)
	out, s := impactText(t, "--root", dir, "total")

	if got := s["Impact of"].head; got != "Impact of total (func) shop/pricing.py:10" {
		t.Errorf("header: %q", got)
	}
	if got := s["Impact of"].lines; len(got) != 1 || strings.TrimSpace(got[0]) != "def total(cart: C) -> int" {
		t.Errorf("signature line: %q", got)
	}
	callers := s["Callers"]
	if !strings.HasPrefix(callers.head, "Callers (3): ") {
		t.Errorf("callers head: %q", callers.head)
	}
	for _, re := range []string{
		`^  main\s+shop/cli\.py:11\s+resolved$`,
		`^  render\s+shop/pricing\.py:16\s+resolved$`,
		`^  test_total\s+tests/test_pricing\.py:6\s+resolved$`,
	} {
		if !hasLine(callers.lines, re) {
			t.Errorf("callers lack a line matching %s:\n%s", re, out)
		}
	}
	callees := s["Callees"]
	if !strings.HasPrefix(callees.head, "Callees (2): ") || !hasLine(callees.lines, `^  Cart\.amounts\s+shop/models\.py:45\s+resolved$`) ||
		!hasLine(callees.lines, `^  discount\s+shop/pricing\.py:6\s+resolved$`) {
		t.Errorf("callees:\n%s", out)
	}
	blast := s["Blast radius"]
	if !strings.HasPrefix(blast.head, "Blast radius (depth 3): 5 symbols in 3 files ") {
		t.Errorf("blast radius head: %q", blast.head)
	}
	for _, re := range []string{
		`^  1\s+main\s+shop/cli\.py:8\s+resolved$`,
		`^  1\s+render\s+shop/pricing\.py:15\s+resolved$`,
		`^  1\s+test_total\s+tests/test_pricing\.py:5\s+resolved$`,
		`^  2\s+TestRender\.test_render\s+tests/test_pricing\.py:10\s+resolved$`,
		`^  2\s+shop/cli\.py\s+shop/cli\.py\s+resolved$`,
	} {
		if !hasLine(blast.lines, re) {
			t.Errorf("blast radius lacks a line matching %s:\n%s", re, out)
		}
	}
	// Nearest first.
	prev := 0
	for _, l := range blast.lines {
		var d int
		fmt.Sscan(l, &d)
		if d < prev {
			t.Errorf("blast radius not nearest first:\n%s", out)
		}
		prev = d
	}
	tests := s["Affected tests"]
	if !strings.HasPrefix(tests.head, "Affected tests (2): ") {
		t.Errorf("tests head: %q", tests.head)
	}
	if got := strings.Join(names(tests, 0), " "); got != "TestRender.test_render test_total" {
		t.Errorf("affected tests: %q\n%s", got, out)
	}
	if !hasLine(tests.lines, `^  test_total\s+tests/test_pricing\.py:5\s+calls$`) ||
		!hasLine(tests.lines, `^  TestRender\.test_render\s+tests/test_pricing\.py:10\s+calls$`) {
		t.Errorf("affected tests lack locations:\n%s", out)
	}

	golden(t, "impact_total.golden", out)
}

// golden compares got with testdata/NAME (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./daemon/cli -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (review, then go test ./daemon/cli -update):\n%s", p, lineDiff(string(want), got))
	}
}

func TestImpactDepth(t *testing.T) {
	dir := pyFixture(t)
	// Flags after the symbol, --root included.
	out, s := impactText(t, "total", "--root", dir, "--depth", "1")
	blast := s["Blast radius"]
	if !strings.HasPrefix(blast.head, "Blast radius (depth 1): 3 symbols in 3 files ") {
		t.Errorf("blast radius head: %q", blast.head)
	}
	got := names(blast, 1)
	sort.Strings(got)
	if strings.Join(got, " ") != "main render test_total" {
		t.Errorf("depth 1 blast radius: want exactly the direct callers, got %v:\n%s", got, out)
	}
	for _, l := range blast.lines {
		if !strings.HasPrefix(l, "  1  ") {
			t.Errorf("depth 1 blast radius has a deeper hit: %q", l)
		}
	}
	callers := names(s["Callers"], 0)
	sort.Strings(callers)
	if strings.Join(callers, " ") != strings.Join(got, " ") {
		t.Errorf("depth 1 blast radius %v differs from the callers %v", got, callers)
	}
	// Affected tests come from the whole call closure, not the display
	// depth: test_render reaches total two hops away.
	if got := names(s["Affected tests"], 0); strings.Join(got, " ") != "TestRender.test_render test_total" {
		t.Errorf("depth 1 affected tests: %v", got)
	}

	// The same with flags first, in the = form.
	out2, _ := impactText(t, "--depth=1", "--root="+dir, "total")
	if out2 != out {
		t.Errorf("flag position changes the output:\n%s\nvs\n%s", out, out2)
	}

	// Depth 0 is unlimited.
	_, s = impactText(t, "--root", dir, "total", "--depth", "0")
	if h := s["Blast radius"].head; !strings.HasPrefix(h, "Blast radius (depth unlimited): 5 symbols in 3 files ") {
		t.Errorf("depth 0 head: %q", h)
	}
	// A deeper chain: Cart.Line.amount ← one ← amounts ← total ← …
	_, s2 := impactText(t, "--root", dir, "Cart.Line.amount", "--depth", "2")
	_, s3 := impactText(t, "--root", dir, "Cart.Line.amount", "--depth", "3")
	_, s0 := impactText(t, "--root", dir, "Cart.Line.amount", "--depth", "0")
	n2, n3, n0 := len(s2["Blast radius"].lines), len(s3["Blast radius"].lines), len(s0["Blast radius"].lines)
	if !(n2 < n3 && n3 < n0) {
		t.Errorf("blast radius sizes at depth 2, 3, unlimited: %d, %d, %d; want strictly growing", n2, n3, n0)
	}
	if !hasLine(s0["Affected tests"].lines, `test_total`) || !hasLine(s0["Affected tests"].lines, `TestRender\.test_render`) {
		t.Errorf("unlimited depth from Cart.Line.amount misses the tests: %v", s0["Affected tests"].lines)
	}
}

type impactJSON struct {
	Target struct {
		ID        string `json:"id"`
		Kind      string `json:"kind"`
		Label     string `json:"label"`
		Qual      string `json:"qual"`
		Path      string `json:"path"`
		Lang      string `json:"lang"`
		StartLine int    `json:"start_line"`
		EndLine   int    `json:"end_line"`
		Signature string `json:"signature"`
		Owner     string `json:"owner"`
		Test      bool   `json:"test"`
	} `json:"target"`
	Callers       []jsonNeighbor `json:"callers"`
	Callees       []jsonNeighbor `json:"callees"`
	BlastRadius   []jsonHit      `json:"blast_radius"`
	Files         []string       `json:"files"`
	Tests         []jsonTest     `json:"tests"`
	TestsComplete bool           `json:"tests_complete"`
	TestCommand   string         `json:"test_command"`
	Depth         int            `json:"depth"`
	OtherMatches  []string       `json:"other_matches"`
}

type jsonTest struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Via   string `json:"via"`
}

// testIDs lists the ids of the affected tests.
func (im impactJSON) testIDs() []string {
	var out []string
	for _, t := range im.Tests {
		out = append(out, t.ID)
	}
	return out
}

type jsonNeighbor struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Calls      int    `json:"calls"`
	Confidence string `json:"confidence"`
	SiteLines  []int  `json:"site_lines"`
	SitePath   string `json:"site_path"`
	Sites      []struct {
		Path  string `json:"path"`
		Lines []int  `json:"lines"`
	} `json:"sites"`
}

type jsonHit struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Depth      int    `json:"depth"`
	Via        string `json:"via"`
	Confidence string `json:"confidence"`
}

func impactJSONOf(t *testing.T, args ...string) (impactJSON, map[string]json.RawMessage) {
	t.Helper()
	r := runOK(t, append([]string{"impact", "--json"}, args...)...)
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	var im impactJSON
	if err := dec.Decode(&im); err != nil {
		t.Fatalf("impact --json: %v\n%s", err, r.stdout)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil {
		t.Fatal(err)
	}
	return im, raw
}

func ids[T any](xs []T, id func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	sort.Strings(out)
	return out
}

func TestImpactJSON(t *testing.T) {
	dir := pyFixture(t)
	im, raw := impactJSONOf(t, "--root", dir, "total")
	for _, k := range []string{"target", "callers", "callees", "blast_radius", "files", "tests", "depth"} {
		if raw[k] == nil {
			t.Errorf("impact --json lacks %q", k)
		}
	}
	if im.Target.ID != "shop/pricing.py::total" || im.Target.Kind != "func" || im.Target.StartLine != 10 ||
		im.Target.Path != "shop/pricing.py" || im.Target.Signature != "def total(cart: C) -> int" {
		t.Errorf("target: %+v", im.Target)
	}
	nid := func(n jsonNeighbor) string { return n.ID }
	if got := ids(im.Callers, nid); fmt.Sprint(got) != "[shop/cli.py::main shop/pricing.py::render tests/test_pricing.py::test_total]" {
		t.Errorf("callers: %v", got)
	}
	for _, c := range im.Callers {
		if c.Calls < 1 || c.Confidence != "resolved" || len(c.SiteLines) == 0 || c.SitePath != c.Path || c.Line < 1 {
			t.Errorf("caller %+v", c)
		}
	}
	want := map[string]string{"shop/cli.py::main": "[11]", "shop/pricing.py::render": "[16]", "tests/test_pricing.py::test_total": "[6]"}
	for _, c := range im.Callers {
		if fmt.Sprint(c.SiteLines) != want[c.ID] {
			t.Errorf("caller %s: site_lines %v, want %s", c.ID, c.SiteLines, want[c.ID])
		}
	}
	if got := ids(im.Callees, nid); fmt.Sprint(got) != "[shop/models.py::Cart.amounts shop/pricing.py::discount]" {
		t.Errorf("callees: %v", got)
	}
	if im.Depth != 3 {
		t.Errorf("default depth: %d", im.Depth)
	}
	hid := func(h jsonHit) string { return fmt.Sprintf("%d:%s<-%s", h.Depth, h.ID, h.Via) }
	if got := ids(im.BlastRadius, hid); fmt.Sprint(got) != "[1:shop/cli.py::main<-shop/pricing.py::total "+
		"1:shop/pricing.py::render<-shop/pricing.py::total 1:tests/test_pricing.py::test_total<-shop/pricing.py::total "+
		"2:shop/cli.py<-shop/cli.py::main 2:tests/test_pricing.py::TestRender.test_render<-shop/pricing.py::render]" {
		t.Errorf("blast radius: %v", got)
	}
	files := append([]string(nil), im.Files...)
	sort.Strings(files)
	if fmt.Sprint(files) != "[shop/cli.py shop/pricing.py tests/test_pricing.py]" {
		t.Errorf("files: %v", im.Files)
	}
	tests := im.testIDs()
	sort.Strings(tests)
	if fmt.Sprint(tests) != "[tests/test_pricing.py::TestRender.test_render tests/test_pricing.py::test_total]" {
		t.Errorf("tests: %v", im.Tests)
	}
	if len(im.OtherMatches) != 0 {
		t.Errorf("other_matches: %v", im.OtherMatches)
	}

	im, _ = impactJSONOf(t, "total", "--root", dir, "--depth", "1")
	// The depth bounds the blast radius, not the tests.
	if im.Depth != 1 || len(im.BlastRadius) != 3 || fmt.Sprint(im.testIDs()) != "[tests/test_pricing.py::TestRender.test_render tests/test_pricing.py::test_total]" ||
		!im.TestsComplete || !strings.HasPrefix(im.TestCommand, "python -m pytest ") {
		t.Errorf("depth 1: depth %d, %d hits, tests %v, complete %v, command %q", im.Depth, len(im.BlastRadius), im.Tests, im.TestsComplete, im.TestCommand)
	}

	// The text and JSON forms agree.
	_, s := impactText(t, "--root", dir, "total")
	if len(s["Callers"].lines) != len(im.Callers) || len(s["Callees"].lines) != len(im.Callees) {
		t.Errorf("text and JSON disagree")
	}
}

func TestImpactMinConfidence(t *testing.T) {
	dir := pyFixture(t)
	const one = "shop/models.py::Cart.amounts.one"
	im, _ := impactJSONOf(t, "--root", dir, "Cart.Line.amount")
	if len(im.Callers) != 1 || im.Callers[0].ID != one || im.Callers[0].Confidence != "name-match" {
		t.Fatalf("default: want the name-match caller %s, got %+v", one, im.Callers)
	}
	_, s := impactText(t, "--root", dir, "Cart.Line.amount")
	if !hasLine(s["Callers"].lines, `^  Cart\.amounts\.one\s+shop/models\.py:47\s+name-match$`) {
		t.Errorf("text callers: %v", s["Callers"].lines)
	}
	for _, c := range []string{"resolved", "inferred"} {
		im, _ := impactJSONOf(t, "--root", dir, "Cart.Line.amount", "--min-confidence", c)
		if len(im.Callers) != 0 || len(im.BlastRadius) != 0 {
			t.Errorf("--min-confidence %s: the name-match edge %s -> Cart.Line.amount is still followed: %+v %+v",
				c, one, im.Callers, im.BlastRadius)
		}
		_, s := impactText(t, "--root", dir, "Cart.Line.amount", "--min-confidence", c)
		if !strings.HasPrefix(s["Callers"].head, "Callers (0): ") || !strings.HasPrefix(s["Blast radius"].head, "Blast radius (depth 3): 0 symbols in 0 files ") {
			t.Errorf("--min-confidence %s text: %q, %q", c, s["Callers"].head, s["Blast radius"].head)
		}
	}
	// name-match keeps everything; inferred keeps inferred edges.
	if im, _ := impactJSONOf(t, "--root", dir, "Cart.Line.amount", "--min-confidence", "name-match"); len(im.Callers) != 1 {
		t.Errorf("--min-confidence name-match dropped the caller")
	}
	if im, _ := impactJSONOf(t, "--root", dir, "Cart.add", "--min-confidence", "inferred"); len(im.Callers) != 1 ||
		im.Callers[0].ID != "shop/cli.py::main" || im.Callers[0].Confidence != "inferred" {
		t.Errorf("--min-confidence inferred on Cart.add: %+v", im.Callers)
	}
	if im, _ := impactJSONOf(t, "--root", dir, "Cart.add", "--min-confidence", "resolved"); len(im.Callers) != 0 {
		t.Errorf("--min-confidence resolved kept the inferred caller of Cart.add: %+v", im.Callers)
	}
	if im, _ := impactJSONOf(t, "--root", dir, "total", "--min-confidence", "lsp"); len(im.Callers) != 0 {
		t.Errorf("--min-confidence lsp kept callers without a language server: %+v", im.Callers)
	}
}

// BUG: impact --json writes "files": null when the blast radius is empty,
// while every other list (callers, callees, blast_radius, tests,
// other_matches) is [].
func TestImpactJSONEmptyFiles(t *testing.T) {
	dir := pyFixture(t)
	_, raw := impactJSONOf(t, "--root", dir, "Cart.Line.amount", "--min-confidence", "resolved")
	for _, k := range []string{"callers", "callees", "blast_radius", "tests", "other_matches"} {
		if string(raw[k]) != "[]" {
			t.Errorf("%s: %s, want []", k, raw[k])
		}
	}
	if string(raw["files"]) != "[]" {
		t.Fatalf("regression: impact --json writes \"files\": %s for an empty blast radius (the other lists are [])", raw["files"])
	}
}

func TestImpactUsageErrors(t *testing.T) {
	dir := pyFixture(t)
	const usage = "usage: ccd impact [--root DIR] SYMBOL [--depth N] [--min-confidence C] [--json]\n"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bad min-confidence", []string{"--root", dir, "total", "--min-confidence", "high"}, `unknown confidence "high" (want name-match, inferred, resolved, lsp or precise)`},
		{"negative depth", []string{"--root", dir, "total", "--depth", "-1"}, "--depth must be 0 (unlimited) or more"},
		{"depth not a number", []string{"--root", dir, "total", "--depth", "two"}, `invalid value "two" for flag -depth`},
		{"no symbol", []string{"--root", dir}, "want exactly one symbol"},
		{"two symbols", []string{"--root", dir, "total", "render"}, "want exactly one symbol"},
		{"unknown flag", []string{"--root", dir, "total", "--deep"}, "flag provided but not defined: -deep"},
		{"root without value", []string{"total", "--root"}, "flag needs an argument: -root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, append([]string{"impact"}, tc.args...)...)
			if r.code != 2 {
				t.Errorf("want exit 2, got\n%s", r)
			}
			if r.stdout != "" {
				t.Errorf("stdout not empty: %q", r.stdout)
			}
			if !strings.HasPrefix(r.stderr, "ccd impact: ") || !strings.Contains(r.stderr, tc.want) || !strings.HasSuffix(r.stderr, usage) {
				t.Errorf("stderr: want %q and the usage, got\n%s", tc.want, r.stderr)
			}
		})
	}
	// Usage errors are reported before indexing: a missing root does not matter.
	if r := run(t, "impact", "--root", filepath.Join(dir, "nope"), "total", "--depth", "-2"); r.code != 2 {
		t.Errorf("negative depth with a missing root: want exit 2, got\n%s", r)
	}
	// -h prints the command's usage and exits 0.
	r := run(t, "impact", "-h")
	if r.code != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, usage) {
		t.Errorf("impact -h:\n%s", r)
	}
}

func TestImpactNotFound(t *testing.T) {
	dir := pyFixture(t)
	r := run(t, "impact", "--root", dir, "Cart.ad")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("impact Cart.ad: want exit 1 and no stdout, got\n%s", r)
	}
	for _, w := range []string{
		`ccd impact: symbol not found: "Cart.ad"` + "\n",
		"Similar symbols:\n",
		"  • Cart.add (func in shop/models.py:39)\n",
		"Hint: use one of the names above, or a node id like path/to/file.py::Class.method\n",
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	// The README's example, line for line, starts the message.
	readme := "ccd impact: symbol not found: \"Cart.ad\"\nSimilar symbols:\n  • Cart.add (func in shop/models.py:39)\n"
	if !strings.HasPrefix(r.stderr, readme) {
		t.Errorf("stderr does not start like the README example:\n%s", r.stderr)
	}
	if n := strings.Count(r.stderr, "  • "); n < 1 || n > 5 {
		t.Errorf("%d suggestions, want 1 to 5", n)
	}

	// Nothing similar: the other hint.
	for _, q := range []string{"zzqxwv", "Qqqqqqqqqqqqqqqqqqqq.Wwwwwwwwwww"} {
		r = run(t, "impact", "--root", dir, q)
		if r.code != 1 || r.stdout != "" {
			t.Fatalf("impact %s: want exit 1, got\n%s", q, r)
		}
		want := fmt.Sprintf("ccd impact: symbol not found: %q\n", q) +
			"Hint: check the spelling, or run `ccd symbols QUERY` to search; the graph holds functions, classes and files\n"
		if r.stderr != want {
			t.Errorf("impact %s: stderr\n%s\nwant\n%s", q, r.stderr, want)
		}
	}
	// JSON output does not change the error.
	if r := run(t, "impact", "--root", dir, "--json", "Cart.ad"); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "Cart.add") {
		t.Errorf("impact --json Cart.ad:\n%s", r)
	}
}

// TestImpactSymbolForms checks the SYMBOL forms README.md lists: node id,
// qualified name, bare name, file and path:line.
func TestImpactSymbolForms(t *testing.T) {
	dir := pyFixture(t)
	for _, tc := range []struct{ q, id string }{
		{"shop/models.py::Cart.add", "shop/models.py::Cart.add"},
		{"Cart.add", "shop/models.py::Cart.add"},
		{"add", "shop/models.py::Cart.add"},
		{"Cart.Line.amount", "shop/models.py::Cart.Line.amount"},
		{"shop/models.py", "shop/models.py"},
		{"shop/models.py:39", "shop/models.py::Cart.add"},
		{"shop/models.py:41", "shop/models.py::Cart.add"},
		{"tests/test_pricing.py::TestRender.test_render", "tests/test_pricing.py::TestRender.test_render"},
		{"Cart", "shop/models.py::Cart"},
	} {
		im, _ := impactJSONOf(t, "--root", dir, tc.q)
		if im.Target.ID != tc.id {
			t.Errorf("impact %s: target %s, want %s", tc.q, im.Target.ID, tc.id)
		}
	}
	// An ambiguous name picks one and names the others.
	out, _ := impactText(t, "--root", dir, "label")
	if !strings.Contains(out, "  (1 other matches, e.g. shop/models.py::") {
		t.Errorf("impact label: no other-matches note:\n%s", out)
	}
	im, _ := impactJSONOf(t, "--root", dir, "label")
	all := append([]string{im.Target.ID}, im.OtherMatches...)
	sort.Strings(all)
	if fmt.Sprint(all) != "[shop/models.py::Base.label shop/models.py::Item.label]" {
		t.Errorf("impact label: target and other matches %v", all)
	}
	// A class aggregates the callers of its methods.
	im, _ = impactJSONOf(t, "--root", dir, "Cart")
	if got := ids(im.Callers, func(n jsonNeighbor) string { return n.ID }); !contains(got, "shop/cli.py::main") || !contains(got, "shop/pricing.py::rebuild") {
		t.Errorf("impact Cart: callers %v", got)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestImpactListLimit checks that long lists are cut at 20 with a count of
// the rest.
func TestImpactListLimit(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("from lib import target\n\n")
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "\ndef caller%02d():\n    return target()\n", i)
	}
	dir := writeTree(t, map[string]string{
		"lib.py":     "def target():\n    return 1\n",
		"callers.py": b.String(),
	})
	out, s := impactText(t, "--root", dir, "target")
	if !strings.HasPrefix(s["Callers"].head, "Callers (25): ") || len(s["Callers"].lines) != 21 || s["Callers"].lines[20] != "  … 5 more" {
		t.Errorf("callers not cut at 20:\n%s", out)
	}
	if !strings.HasPrefix(s["Blast radius"].head, "Blast radius (depth 3): 25 symbols in 1 files ") || len(s["Blast radius"].lines) != 21 ||
		s["Blast radius"].lines[20] != "  … 5 more" {
		t.Errorf("blast radius not cut at 20:\n%s", out)
	}
	im, _ := impactJSONOf(t, "--root", dir, "target")
	if len(im.Callers) != 25 || len(im.BlastRadius) != 25 {
		t.Errorf("JSON is cut: %d callers, %d hits", len(im.Callers), len(im.BlastRadius))
	}
	re := regexp.MustCompile(`^  caller\d\d\s+callers\.py:\d+\s+resolved$`)
	for _, l := range s["Callers"].lines[:20] {
		if !re.MatchString(l) {
			t.Errorf("caller line %q", l)
		}
	}
}

func TestImpactDefaultRoot(t *testing.T) {
	dir := pyFixture(t)
	t.Chdir(dir)
	_, s := impactText(t, "total")
	if !strings.HasPrefix(s["Callers"].head, "Callers (3): ") {
		t.Errorf("impact without --root in the project: %q", s["Callers"].head)
	}
}
