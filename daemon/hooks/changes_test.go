package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/index"
)

func keys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

func eventOf(t *testing.T, tool string, input, response any) *Event {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": tool, "tool_input": input, "tool_response": response})
	ev, err := ParseEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestChangedLines: which lines an edit changed, from each source the
// event can carry; context lines of a patch never count.
func TestChangedLines(t *testing.T) {
	oldFile := "a\nb\nc\nd\ne\n"
	newFile := "a\nB\nc\nd\nx\ny\n"
	cases := []struct {
		name           string
		ev             *Event
		current        string
		known          bool
		added, deleted string
	}{
		{"structuredPatch: only + and - lines", eventOf(t, "Edit", map[string]any{},
			map[string]any{"structuredPatch": []any{map[string]any{"oldStart": 1, "oldLines": 5, "newStart": 1, "newLines": 6,
				"lines": []any{" a", "-b", "+B", " c", " d", "-e", "+x", "+y"}}}}), newFile, true, "[2 5 6]", "[2 5]"},
		{"patch with a no-newline marker", eventOf(t, "Edit", map[string]any{},
			map[string]any{"structuredPatch": []any{map[string]any{"oldStart": 10, "newStart": 12,
				"lines": []any{" k", "-old", `\ No newline at end of file`, "+new"}}}}), "", true, "[13]", "[11]"},
		{"originalFile against the file now", eventOf(t, "Write", map[string]any{}, map[string]any{"originalFile": oldFile}),
			newFile, true, "[2 5 6]", "[2 5]"},
		{"old_string/new_string located", eventOf(t, "Edit", map[string]any{"old_string": "c\nd\ne", "new_string": "c\nd\nx\ny"}, "ok"),
			newFile, true, "[5 6]", "[5]"},
		{"MultiEdit edits", eventOf(t, "MultiEdit", map[string]any{"edits": []any{
			map[string]any{"old_string": "b", "new_string": "B"}, map[string]any{"old_string": "e", "new_string": "x\ny"}}}, "ok"),
			newFile, true, "[2 5 6]", "[2 5]"},
		{"replace_all: every place", eventOf(t, "Edit", map[string]any{"old_string": "v", "new_string": "w\nw2", "replace_all": true}, "ok"),
			"a\nw\nw2\nb\nw\nw2\n", true, "[2 3 5 6]", "[2 4]"},
		{"new_string not in the file: unknown", eventOf(t, "Edit", map[string]any{"old_string": "q", "new_string": "zz"}, "ok"),
			newFile, false, "[]", "[]"},
		{"nothing to go by", eventOf(t, "Write", map[string]any{"content": newFile}, "ok"), newFile, false, "[]", "[]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cur []byte
			if c.current != "" {
				cur = []byte(c.current)
			}
			lc := c.ev.changedLines(cur)
			if lc.known != c.known || fmt.Sprint(keys(lc.added)) != c.added || fmt.Sprint(keys(lc.deleted)) != c.deleted {
				t.Errorf("known %v added %v deleted %v; want %v %s %s", lc.known, keys(lc.added), keys(lc.deleted), c.known, c.added, c.deleted)
			}
		})
	}
}

// TestContextLinesAreNotChanges: the optional parameter added to
// process_data does not change normalize, which sits in the patch's
// context lines; deleting the last line of a Python function's body does
// change it (counted in the old numbering).
func TestContextLinesAreNotChanges(t *testing.T) {
	h := shopRepo(t)
	before := h.res.Graph
	p := filepath.Join(h.root, "shop", "pricing.py")
	b, _ := os.ReadFile(p)
	old := string(b)
	lines := strings.Split(old, "\n")
	// The line of price_of's def and the lines around it, as a patch
	// with context lines around it (base_price among them).
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "def price_of(") {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no price_of in\n%s", old)
	}
	newDef := strings.Replace(lines[at], "):", ", currency=None):", 1)
	if newDef == lines[at] {
		t.Fatalf("cannot extend %q", lines[at])
	}
	lo, hi := max(0, at-3), min(len(lines), at+7) // base_price is in the trailing context
	var hunk []any
	for i := lo; i < hi; i++ {
		if i == at {
			hunk = append(hunk, "-"+lines[at], "+"+newDef)
		} else {
			hunk = append(hunk, " "+lines[i])
		}
	}
	lines[at] = newDef
	os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644)
	_, after, err := h.Apply(context.Background(), h.root, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	ev := eventOf(t, "Edit", map[string]any{}, map[string]any{"structuredPatch": []any{map[string]any{
		"oldStart": lo + 1, "oldLines": hi - lo, "newStart": lo + 1, "newLines": hi - lo, "lines": hunk}}})
	cur, _ := os.ReadFile(p)
	var got []string
	for _, c := range diffFile(before, after, "shop/pricing.py", ev.changedLines(cur)) {
		got = append(got, c.what+":"+c.id)
	}
	if fmt.Sprint(got) != "[signature:shop/pricing.py::price_of]" {
		t.Errorf("changes %v, want only price_of's signature (its neighbours are context)", got)
	}
}

// TestEditCardNamesEveryCallSite: a caller that calls the changed
// function three times is cited with all three lines.
func TestEditCardNamesEveryCallSite(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/d\n\ngo 1.22\n",
		"dec.go": "package d\n\nfunc literalStore(v int) int { return v }\n",
		"use.go": "package d\n\nfunc decode(a, b, c int) int {\n\tx := literalStore(a)\n\ty := literalStore(b)\n\n\treturn x + y + literalStore(c)\n}\n",
	}
	for p, s := range files {
		os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644)
	}
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	h := &indexHost{root: dir, res: res}
	before := res.Graph
	p := filepath.Join(dir, "dec.go")
	os.WriteFile(p, []byte("package d\n\nfunc literalStore(v int, strict bool) int { return v }\n"), 0o644)
	_, after, err := h.Apply(context.Background(), dir, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	cs := diffFile(before, after, "dec.go", lineChanges{})
	text, _ := editCard(before, after, "dec.go", cs, 900, newSiteReader(dir), nil)
	if !strings.Contains(text, "passes 1 argument, literalStore now takes 2: use.go:4,5,7 decode") {
		t.Errorf("the card does not cite every call site:\n%s", text)
	}
}

// TestSignatureCards: an optional parameter breaks no caller and the card
// says so in one line, with no Stop reminder; a required one names the
// call sites that break and why, and the ones that still fit.
func TestSignatureCards(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":  "",
		"app/__init__.py": "",
		"app/records.py":  "def normalize(r):\n    return r\n\n\ndef process_data(records, strict=False):\n    return [normalize(r) for r in records]\n\n\ndef total(records):\n    return len(process_data(records))\n",
		"app/api.py":      "from app.records import process_data\n\n\ndef handle_request(payload):\n    return process_data(payload)\n\n\ndef handle_import(batch):\n    return process_data(batch, strict=True)\n\n\ndef handle_all(*args):\n    return process_data(*args)\n",
		"tests/test_r.py": "from app.records import process_data\n\n\ndef test_process_data():\n    assert process_data([], schema=None) == []\n",
	}
	cases := []struct {
		name, newDef string
		want         []string
		risky        int
		noTests      bool // no test reaches process_data
	}{
		{"optional parameter", "def process_data(records, strict=False, limit=None):", []string{
			"Signature of process_data changed (new optional parameter `limit`), compatibly: all 5 call sites in 5 callers still fit."}, 0, false},
		{"required parameter", "def process_data(records, schema, strict=False):", []string{
			"Signature of process_data changed (new required parameter `schema`):",
			"Will break 3 of 5 call sites:",
			"passes 1 positional argument, process_data now also requires `schema`: app/api.py:5 handle_request; app/records.py:10 total",
			"passes 1 positional argument and `strict`, process_data now also requires `schema`: app/api.py:9 handle_import",
			"Cannot check 1 call site:\n  unpacks its arguments (*args or **kwargs): app/api.py:13 handle_all",
			"1 other call site still fit.",
		}, 4, false},
		// Without a test the compatible change still gets its card: the
		// agent learns its callers need no change.
		{"optional parameter, no test", "def process_data(records, strict=False, limit=None):", []string{
			"[ccd edit] app/records.py:",
			"compatibly: all 4 call sites in 4 callers still fit."}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, s := range files {
				if c.noTests && strings.HasPrefix(p, "tests/") {
					continue
				}
				os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
				os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644)
			}
			res, err := index.Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			h := &indexHost{root: dir, res: res}
			p := filepath.Join(dir, "app", "records.py")
			os.WriteFile(p, []byte(strings.Replace(files["app/records.py"], "def process_data(records, strict=False):", c.newDef, 1)), 0o644)
			_, after, err := h.Apply(context.Background(), dir, []string{p})
			if err != nil {
				t.Fatal(err)
			}
			cs := diffFile(res.Graph, after, "app/records.py", lineChanges{})
			r := newSiteReader(dir)
			defer r.close()
			text, risky := editCard(res.Graph, after, "app/records.py", cs, 2000, r, nil)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("card lacks %q:\n%s", w, text)
				}
			}
			n := 0
			for _, e := range risky {
				n += len(e.Callers)
			}
			if n != c.risky {
				t.Errorf("%d callers to follow up at Stop, want %d: %+v", n, c.risky, risky)
			}
		})
	}
}

// TestSignatureCardSites: a recursive call breaks like any other and is
// cited; a call bound by name only (Python, receiver of unknown type)
// cannot be said to break, only that it may.
func TestSignatureCardSites(t *testing.T) {
	cases := []struct {
		name       string
		files      map[string]string
		path       string
		old, new   string
		want, dont []string
	}{
		{"recursive call", map[string]string{
			"go.mod":  "module example.com/w\n\ngo 1.22\n",
			"walk.go": "package w\n\nfunc walk(n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn walk(n - 1)\n}\n\nfunc Top() int { return walk(3) }\n",
		}, "walk.go", "func walk(n int) int {", "func walk(n int, depth int) int {",
			[]string{"Will break 2 of 2 call sites", "walk.go:7 walk", "walk.go:10 Top"}, nil},
		{"name match", map[string]string{
			"pyproject.toml":  "",
			"app/__init__.py": "",
			"app/jobs.py":     "class Job:\n    def transcode(self, x):\n        return x\n\n\ndef run(job: Job):\n    return job.transcode(1)\n\n\nclass Runner:\n    def run_any(self):\n        return self.thing.transcode(2)\n",
		}, "app/jobs.py", "    def transcode(self, x):", "    def transcode(self, x, y):",
			[]string{"Will break 1 of 2 call sites", "app/jobs.py:7 run", "Cannot check 1 call site", "bound by name only", "app/jobs.py:12 Runner.run_any"},
			[]string{"Will break 2"}},
		// immer's currentImpl: the function calls itself from a callback
		{"recursion in a callback", map[string]string{
			"package.json":   "{\"name\": \"w\"}\n",
			"src/current.ts": "export function currentImpl(value: any): any {\n\tconst out: any = {}\n\tObject.keys(value).forEach((k) => {\n\t\tout[k] = currentImpl(value[k])\n\t})\n\treturn out\n}\n",
		}, "src/current.ts", "export function currentImpl(value: any): any {", "export function currentImpl(value: any, depth: number): any {",
			[]string{"Will break 1 of 1 call site", "src/current.ts:4 currentImpl"}, nil},
		// immer's current(): callers see the overload signatures, so a
		// new required parameter of the implementation breaks none of
		// them (the third call no signature takes was broken already).
		{"overloads", map[string]string{
			"package.json":   "{\"name\": \"w\"}\n",
			"src/current.ts": "export function current<T>(value: T): T\nexport function current(value: any, deep: boolean): any\nexport function current(value: any, deep?: boolean): any {\n\treturn value\n}\n",
			"src/use.ts":     "import { current } from './current'\n\nexport function one() { return current(1) }\nexport function two() { return current(1, true) }\nexport function three() { return current(1, true, 3) }\n",
		}, "src/current.ts", "export function current(value: any, deep?: boolean): any {", "export function current(value: any, deep: boolean, extra: number): any {",
			[]string{"all 3 call sites in 3 callers still fit"},
			[]string{"Will break", "May break"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, s := range c.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
				os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644)
			}
			res, err := index.Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			h := &indexHost{root: dir, res: res}
			p := filepath.Join(dir, filepath.FromSlash(c.path))
			if !strings.Contains(c.files[c.path], c.old) {
				t.Fatalf("%s lacks %q", c.path, c.old)
			}
			os.WriteFile(p, []byte(strings.Replace(c.files[c.path], c.old, c.new, 1)), 0o644)
			_, after, err := h.Apply(context.Background(), dir, []string{p})
			if err != nil {
				t.Fatal(err)
			}
			cs := diffFile(res.Graph, after, c.path, lineChanges{})
			r := newSiteReader(dir)
			defer r.close()
			text, _ := editCard(res.Graph, after, c.path, cs, 2000, r, nil)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("card lacks %q:\n%s", w, text)
				}
			}
			for _, w := range c.dont {
				if strings.Contains(text, w) {
					t.Errorf("card has %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestEditInCallback: anonymous functions are part of the named function
// holding them. An edit inside a callback is a body change of that
// function, and lines added above move callbacks without adding or
// removing anything.
func TestEditInCallback(t *testing.T) {
	dir := t.TempDir()
	src := "function render(x) { return x; }\n\nfunction routes(app) {\n  app.get('/', function (req, res) {\n    res.send(render(req));\n  });\n}\n\nmodule.exports = { routes };\n"
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)
	p := filepath.Join(dir, "app.js")
	os.WriteFile(p, []byte(src), 0o644)
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	h := &indexHost{root: dir, res: res}
	edited := strings.Replace(src, "res.send(render(req));", "const b = req.body;\n    res.send(render(b));", 1)
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"edit in the callback", edited, []string{"body app.js::routes"}},
		{"lines added above", "// a comment\n// another\n" + edited, nil},
	} {
		before := h.res.Graph
		os.WriteFile(p, []byte(tc.src), 0o644)
		_, after, err := h.Apply(context.Background(), dir, []string{p})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range diffFile(before, after, "app.js", lineChanges{}) {
			got = append(got, c.what+" "+c.id)
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: changes %v, want %v", tc.name, got, tc.want)
		}
	}
}
