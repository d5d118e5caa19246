package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// sourceFile is one file to edit: its path, language and text.
type sourceFile struct {
	path, lang string
	src        []byte
}

// fixtureSources returns the source files of every graph fixture.
func fixtureSources(t *testing.T, reg *Registry) []sourceFile {
	t.Helper()
	paths, _ := filepath.Glob("../../testdata/graph/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures under testdata/graph")
	}
	var out []sourceFile
	for _, p := range paths {
		for _, f := range testrepo.Read(t, p).Files {
			l := config.LanguageFor(f.Name)
			if testrepo.Meta[f.Name] || l == nil || !reg.Supports(l.Name) || bytes.IndexByte(f.Data, 0) >= 0 {
				continue
			}
			out = append(out, sourceFile{path: f.Name, lang: l.Name, src: f.Data})
		}
	}
	return out
}

// realSources are big real files: GOROOT's net/http/server.go and
// Python's argparse.py.
func realSources(t *testing.T) []sourceFile {
	t.Helper()
	gosrc := filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go")
	pys, _ := filepath.Glob("/usr/lib/python3*/argparse.py")
	if len(pys) == 0 {
		t.Fatal("no /usr/lib/python3*/argparse.py: install python3 (the tests read its standard library)")
	}
	var out []sourceFile
	for _, f := range []sourceFile{{path: "net/http/server.go", lang: "go"}, {path: "argparse.py", lang: "python"}} {
		p := gosrc
		if f.lang == "python" {
			p = pys[0]
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		f.src = src
		out = append(out, f)
	}
	return out
}

// snippets are inserted by random edits: code that fits, code that
// breaks the syntax, and multi-byte characters.
var snippets = []string{
	"x", "(", ")", "{", "}", "[", "]", ":", ";", ",", ".", "\"", "'", "`", "\n", "\n\n", "    ", "\t",
	"# note\n", "// note\n", "/* c */", "foo(bar)", "a.b.c()", "return 1\n",
	"def added(x):\n    return x\n", "func Added() int { return 1 }\n", "class K:\n    pass\n",
	"é", "漢字", "🙂", "naïve_ünïcode = 1\n", "\xe9t\xe9",
}

// mutate applies one random edit to text (of language lang) and names it:
// half are edits that mostly keep the syntax (renamed identifiers, added
// comment or blank lines), half anything at all.
func mutate(rng *rand.Rand, lang string, text []byte) ([]byte, string) {
	if rng.Intn(2) == 0 {
		if out, what := tidyEdit(rng, lang, text); out != nil {
			return out, what
		}
	}
	return anyEdit(rng, text)
}

// tidyEdit makes an edit that keeps the syntax in most places; nil when
// the text offers no place for it.
func tidyEdit(rng *rand.Rand, lang string, text []byte) ([]byte, string) {
	isID := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80 }
	if len(text) == 0 {
		return nil, ""
	}
	at := rng.Intn(len(text))
	switch rng.Intn(3) {
	case 0:
		// Rename the identifier around a random byte.
		a, b := at, at
		for a > 0 && isID(text[a-1]) {
			a--
		}
		for b < len(text) && isID(text[b]) {
			b++
		}
		if a == b {
			return nil, ""
		}
		names := []string{"renamed", "x", "a_much_longer_name_than_before", "ünïcode", "漢字", "n" + fmt.Sprint(rng.Intn(100))}
		return slices.Concat(text[:a], []byte(names[rng.Intn(len(names))]), text[b:]), "rename"
	default:
		// A comment or blank line at the start of a line.
		for at > 0 && text[at-1] != '\n' {
			at--
		}
		line := "\n"
		if rng.Intn(2) == 0 {
			line = "// added comment é\n"
			if lang == "python" || lang == "ruby" || lang == "bash" {
				line = "# added comment é\n"
			}
		}
		return slices.Concat(text[:at], []byte(line), text[at:]), "add line"
	}
}

// anyEdit applies one random edit to text and names it.
func anyEdit(rng *rand.Rand, text []byte) ([]byte, string) {
	pos := func() int {
		if len(text) == 0 {
			return 0
		}
		i := rng.Intn(len(text) + 1)
		// Mostly on character boundaries; sometimes anywhere.
		for rng.Intn(8) != 0 && i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
			i--
		}
		return i
	}
	span := func(at int) int {
		n := 1 + rng.Intn(20)
		if rng.Intn(10) == 0 {
			n = rng.Intn(len(text)/4 + 1)
		}
		return min(at+n, len(text))
	}
	splice := func(a, b int, ins []byte) []byte {
		out := make([]byte, 0, len(text)-(b-a)+len(ins))
		out = append(out, text[:a]...)
		out = append(out, ins...)
		return append(out, text[b:]...)
	}
	snippet := func() []byte {
		if rng.Intn(3) == 0 && len(text) > 0 {
			// A piece of the file itself: code of the right language.
			a := rng.Intn(len(text))
			return append([]byte(nil), text[a:span(a)]...)
		}
		return []byte(snippets[rng.Intn(len(snippets))])
	}
	switch k := rng.Intn(9); k {
	case 0:
		return splice(0, 0, snippet()), "insert at start"
	case 1:
		return splice(len(text), len(text), snippet()), "insert at end"
	case 2:
		a := pos()
		return splice(a, span(a), nil), "delete"
	case 3:
		a := pos()
		return splice(a, span(a), snippet()), "replace"
	case 4:
		// A whole line moved: mostly keeps the syntax.
		lines := bytes.SplitAfter(text, []byte("\n"))
		if len(lines) < 2 {
			return splice(0, 0, snippet()), "insert at start"
		}
		i, j := rng.Intn(len(lines)), rng.Intn(len(lines))
		l := lines[i]
		lines = append(lines[:i], lines[i+1:]...)
		j = min(j, len(lines))
		lines = append(lines[:j], append([][]byte{l}, lines[j:]...)...)
		return bytes.Join(lines, nil), "move line"
	case 5:
		if len(text) > 0 {
			return splice(max(0, len(text)-1-rng.Intn(10)), len(text), nil), "delete at end"
		}
		return text, "nothing"
	default:
		a := pos()
		return splice(a, a, snippet()), "insert"
	}
}

// canon renders facts for a failure message.
func canon(f *facts.File) string {
	b, _ := json.MarshalIndent(f, "", " ")
	return string(b)
}

// firstDiff shows where two renderings part.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  incremental: %s\n  fresh:       %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}

// checkSame parses text with ParseWith through c and with Parse, and
// fails when the facts differ.
func checkSame(t *testing.T, inc, fresh *Parser, c *TreeCache, f sourceFile, text []byte, what string) {
	t.Helper()
	got, err1 := inc.ParseWith(c, f.path, f.lang, text)
	want, err2 := fresh.Parse(f.path, f.lang, text)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s after %s: ParseWith error %v, Parse error %v", f.path, what, err1, err2)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s after %s: incremental facts differ from a fresh parse: %s", f.path, what, firstDiff(canon(got), canon(want)))
	}
}

// editSequence edits f steps times at random, sometimes going back to the
// last text without syntax errors (a fix after a break), and checks every
// step.
func editSequence(t *testing.T, reg *Registry, c *TreeCache, f sourceFile, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	inc, fresh := reg.NewParser(), reg.NewParser()
	defer inc.Close()
	defer fresh.Close()
	text := f.src
	good := text
	checkSame(t, inc, fresh, c, f, text, "the first parse")
	for i := 0; i < steps; i++ {
		what := "fix"
		broken := !bytes.Equal(text, good)
		if (broken && rng.Intn(2) == 0) || rng.Intn(10) == 0 {
			text = good
		} else {
			text, what = mutate(rng, f.lang, text)
		}
		checkSame(t, inc, fresh, c, f, text, fmt.Sprintf("step %d (%s, seed %d)", i, what, seed))
		if ff, _ := fresh.Parse(f.path, f.lang, text); ff != nil && ff.SyntaxErrors == 0 {
			good = text
		}
	}
}

// TestParseWithSameFacts edits every fixture file and a few big real files
// at random and checks that incremental parses give exactly the facts of
// fresh ones, and that the reuse really happened.
func TestParseWithSameFacts(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	steps, bigSteps := 40, 40
	if testing.Short() {
		steps, bigSteps = 12, 10
	}
	files := fixtureSources(t, reg)
	langs := map[string]bool{}
	for _, f := range files {
		langs[f.lang] = true
	}
	if len(langs) < 8 {
		t.Fatalf("fixtures cover %d languages, want every graph fixture's", len(langs))
	}
	var latin1 bool
	for _, f := range files {
		latin1 = latin1 || !utf8.Valid(f.src)
	}
	if !latin1 {
		t.Fatal("no Latin-1 file among the fixtures: the legacy-encoding path goes untested")
	}
	c := NewTreeCache(0)
	defer c.Close()
	for i, f := range files {
		editSequence(t, reg, c, f, int64(i+1), steps)
	}
	for i, f := range realSources(t) {
		before := c.Stats()
		editSequence(t, reg, c, f, int64(100+i), bigSteps)
		if after := c.Stats(); after.Incremental-before.Incremental < bigSteps/4 {
			t.Errorf("%s: %d incremental parses in %d edits (%+v): the cached tree is not reused", f.path,
				after.Incremental-before.Incremental, bigSteps, after)
		}
	}
	st := c.Stats()
	t.Logf("%d files: %+v", len(files)+2, st)
	total := st.Incremental + st.Full + st.Fallback + st.Unchanged
	if st.Incremental < total/3 {
		t.Errorf("only %d of %d parses were incremental: %+v", st.Incremental, total, st)
	}
	if st.Fallback == 0 {
		t.Errorf("no incremental parse fell back to a full one, though edits broke the syntax: %+v", st)
	}
	if st.Cached > DefaultTreeCacheSize || st.Closed == 0 {
		t.Errorf("cache holds %d trees and closed %d, want at most %d held and evictions", st.Cached, st.Closed, DefaultTreeCacheSize)
	}
}

// TestParseWithLatin1 edits a legacy-encoded file, adding and removing
// bytes that are not UTF-8.
func TestParseWithLatin1(t *testing.T) {
	reg, _ := Default()
	f := sourceFile{path: "legacy.py", lang: "python", src: []byte("# caf\xe9\ndef caf\xe9_name():\n    return old()\n\n\ndef old():\n    return '\xe9t\xe9'\n")}
	c := NewTreeCache(2)
	defer c.Close()
	inc, fresh := reg.NewParser(), reg.NewParser()
	defer inc.Close()
	defer fresh.Close()
	text := f.src
	for i, ins := range []string{"def more_\xe9():\n    pass\n", "x = '\xff'\n", "def b(\n", "def b():\n    return 1\n"} {
		at := bytes.Index(text, []byte("\n\n"))
		text = append(append(append([]byte(nil), text[:at+1]...), ins...), text[at+1:]...)
		checkSame(t, inc, fresh, c, f, text, fmt.Sprintf("insert %d", i))
	}
	if st := c.Stats(); st.Incremental == 0 {
		t.Errorf("no incremental parse of the Latin-1 file: %+v", st)
	}
}

func TestParseWithUnchangedAndNil(t *testing.T) {
	reg, _ := Default()
	p := reg.NewParser()
	defer p.Close()
	src := []byte("package a\n\nfunc F() { G() }\n")
	want, err := p.Parse("a.go", "go", src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.ParseWith(nil, "a.go", "go", src)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseWith(nil) = %v, %v; want Parse's facts", got, err)
	}
	c := NewTreeCache(4)
	defer c.Close()
	for i := 0; i < 3; i++ {
		got, err := p.ParseWith(c, "a.go", "go", src)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("parse %d: %v, %v; want Parse's facts", i, got, err)
		}
	}
	if st := c.Stats(); st.Full != 1 || st.Unchanged != 2 || st.Cached != 1 {
		t.Errorf("stats %+v, want 1 full parse, 2 of unchanged text and 1 tree held", st)
	}
	if _, err := p.ParseWith(c, "a.x", "no-such-language", src); err == nil || !strings.Contains(err.Error(), "no grammar") {
		t.Errorf("unknown language: error %v, want a 'no grammar' error", err)
	}
}

func TestTreeCacheEvictsAndCloses(t *testing.T) {
	reg, _ := Default()
	p := reg.NewParser()
	defer p.Close()
	c := NewTreeCache(3)
	src := func(i int) []byte { return []byte(fmt.Sprintf("package a\n\nfunc F%d() {}\n", i)) }
	for i := 0; i < 5; i++ {
		if _, err := p.ParseWith(c, fmt.Sprintf("f%d.go", i), "go", src(i)); err != nil {
			t.Fatal(err)
		}
	}
	if st := c.Stats(); st.Cached != 3 || st.Closed != 2 || st.Full != 5 {
		t.Fatalf("after 5 files in a cache of 3: %+v, want 3 held, 2 closed, 5 full parses", st)
	}
	for i := 0; i < 5; i++ {
		if got, want := c.Has(fmt.Sprintf("f%d.go", i), "go"), i >= 2; got != want {
			t.Errorf("Has(f%d.go) = %v, want %v (least recently used go first)", i, got, want)
		}
	}
	// Using f2 makes f3 the least recently used.
	if _, err := p.ParseWith(c, "f2.go", "go", append(src(2), "func H() {}\n"...)); err != nil {
		t.Fatal(err)
	}
	if err := p.Warm(c, "f5.go", "go", src(5)); err != nil {
		t.Fatal(err)
	}
	if c.Has("f3.go", "go") || !c.Has("f2.go", "go") || !c.Has("f5.go", "go") {
		t.Errorf("after using f2 and warming f5: f3 %v f2 %v f5 %v, want f3 evicted", c.Has("f3.go", "go"), c.Has("f2.go", "go"), c.Has("f5.go", "go"))
	}
	// Closed: f0 and f1 evicted, f2's old tree, f3 evicted.
	if st := c.Stats(); st.Incremental != 1 || st.Closed != 4 {
		t.Errorf("stats %+v, want 1 incremental parse and 4 trees closed", st)
	}
	c.Close()
	if st := c.Stats(); st.Cached != 0 || st.Closed != 7 {
		t.Fatalf("after Close: %+v, want nothing held and all 7 trees closed", st)
	}
	// A closed cache keeps nothing: parses still work, from scratch.
	f, err := p.ParseWith(c, "f0.go", "go", src(0))
	if err != nil || len(f.Defs) != 1 {
		t.Fatalf("parse through a closed cache: %v, %v", f, err)
	}
	if st := c.Stats(); st.Cached != 0 || st.Closed != 8 {
		t.Errorf("after a parse through a closed cache: %+v, want its tree closed at once", st)
	}
	c.Close() // twice is fine
}

// TestTreeCacheByteLimit checks that big files push older trees out.
func TestTreeCacheByteLimit(t *testing.T) {
	reg, _ := Default()
	p := reg.NewParser()
	defer p.Close()
	c := NewTreeCache(10)
	defer c.Close()
	c.maxBytes = 100
	small := []byte("package a\n\nfunc F() {}\n") // 25 bytes
	big := []byte("package a\n\n" + strings.Repeat("func G() {}\n", 10))
	for i := 0; i < 3; i++ {
		if err := p.Warm(c, fmt.Sprintf("s%d.go", i), "go", small); err != nil {
			t.Fatal(err)
		}
	}
	if st := c.Stats(); st.Cached != 3 || st.Closed != 0 {
		t.Fatalf("3 small files within the limit: %+v", st)
	}
	if err := p.Warm(c, "big.go", "go", big); err != nil {
		t.Fatal(err)
	}
	// 75 + 131 bytes: every small tree goes, the big one stays alone.
	if st := c.Stats(); st.Cached != 1 || st.Closed != 3 || !c.Has("big.go", "go") {
		t.Fatalf("after a file over the limit: %+v, want only it kept", st)
	}
	if err := p.Warm(c, "s0.go", "go", small); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Cached != 1 || !c.Has("s0.go", "go") {
		t.Fatalf("after another file: %+v, want the big tree evicted", st)
	}
}

// TestTreeCacheConcurrent edits the same few files from several
// goroutines through one small cache (run with -race).
func TestTreeCacheConcurrent(t *testing.T) {
	reg, _ := Default()
	files := fixtureSources(t, reg)
	var pick []sourceFile
	for _, f := range files {
		if f.lang == "go" || f.lang == "python" {
			pick = append(pick, f)
		}
	}
	if len(pick) > 6 {
		pick = pick[:6]
	}
	c := NewTreeCache(3)
	defer c.Close()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w)))
			inc, fresh := reg.NewParser(), reg.NewParser()
			defer inc.Close()
			defer fresh.Close()
			texts := map[string][]byte{}
			for i := 0; i < 30; i++ {
				f := pick[rng.Intn(len(pick))]
				text := texts[f.path]
				if text == nil {
					text = f.src
				}
				text, _ = mutate(rng, f.lang, text)
				texts[f.path] = text
				got, err1 := inc.ParseWith(c, f.path, f.lang, text)
				want, err2 := fresh.Parse(f.path, f.lang, text)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("worker %d step %d %s: incremental facts differ (%v, %v)", w, i, f.path, err1, err2)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	st := c.Stats()
	if st.Cached > 3 || st.Incremental+st.Fallback == 0 {
		t.Errorf("stats %+v: want at most 3 held and some reuse", st)
	}
}

// TestDiffTexts checks the edit found between two texts: applying it to
// the old text gives the new one, its points are where its offsets are,
// and it never splits a character.
func TestDiffTexts(t *testing.T) {
	cases := []struct {
		name, old, cur    string
		start, oEnd, nEnd uint32
	}{
		{"insert middle", "abcdef", "abcXYdef", 3, 3, 5},
		{"delete middle", "abcdef", "abef", 2, 4, 2},
		{"insert start", "abc", "Xabc", 0, 0, 1},
		{"append", "abc", "abcd", 3, 3, 4},
		{"truncate", "abcd", "ab", 2, 4, 2},
		{"from empty", "", "ab\nc", 0, 0, 4},
		{"to empty", "ab\nc", "", 0, 4, 0},
		{"repeated letters", "aaaa", "aaaaa", 4, 4, 5},
		{"line added", "a\nb\n", "a\nx\nb\n", 2, 2, 4},
		{"accent changed", "caf\u00e9!", "caf\u00e8!", 3, 5, 5},
		{"emoji changed", "x\U0001F642y", "x\U0001F643y", 1, 5, 5},
		{"shared lead and tail bytes", "\u00e9\u00e9", "\u00e9\u00e8\u00e9", 2, 2, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := diffTexts([]byte(tc.old), []byte(tc.cur))
			if !ok {
				t.Fatal("texts reported equal")
			}
			if e.start != tc.start || e.oldEnd != tc.oEnd || e.newEnd != tc.nEnd {
				t.Errorf("edit %d,%d→%d; want %d,%d→%d", e.start, e.oldEnd, e.newEnd, tc.start, tc.oEnd, tc.nEnd)
			}
			checkEdit(t, []byte(tc.old), []byte(tc.cur), e)
		})
	}
	if _, ok := diffTexts([]byte("same"), []byte("same")); ok {
		t.Error("equal texts reported as an edit")
	}
	rng := rand.New(rand.NewSource(7))
	text := []byte("package a\n\n// café 漢字 🙂\nfunc F() {\n\tG()\n}\n")
	for i := 0; i < 500; i++ {
		next, _ := mutate(rng, "go", text)
		if e, ok := diffTexts(text, next); ok {
			checkEdit(t, text, next, e)
		}
		text = next
	}
}

// checkEdit checks e against the texts and naive positions.
func checkEdit(t *testing.T, old, cur []byte, e textEdit) {
	t.Helper()
	if !bytes.Equal(old[:e.start], cur[:e.start]) || !bytes.Equal(old[e.oldEnd:], cur[e.newEnd:]) || e.oldEnd < e.start || e.newEnd < e.start {
		t.Fatalf("edit %+v does not turn %q into %q", e, old, cur)
	}
	naive := func(text []byte, off uint32) (row, col uint32) {
		for _, b := range text[:off] {
			col++
			if b == '\n' {
				row, col = row+1, 0
			}
		}
		return
	}
	for _, c := range []struct {
		text []byte
		off  uint32
		pt   [2]uint32
	}{{cur, e.start, [2]uint32{e.startPt.Row, e.startPt.Column}}, {old, e.oldEnd, [2]uint32{e.oldEndPt.Row, e.oldEndPt.Column}}, {cur, e.newEnd, [2]uint32{e.newEndPt.Row, e.newEndPt.Column}}} {
		if r, col := naive(c.text, c.off); r != c.pt[0] || col != c.pt[1] {
			t.Errorf("offset %d of %q at %v, want %d:%d", c.off, c.text, c.pt, r, col)
		}
	}
	if utf8.Valid(old) && utf8.Valid(cur) {
		for _, x := range []struct {
			text []byte
			off  uint32
		}{{cur, e.start}, {old, e.oldEnd}, {cur, e.newEnd}} {
			if int(x.off) < len(x.text) && !utf8.RuneStart(x.text[x.off]) {
				t.Errorf("edit %+v splits a character of %q at %d", e, x.text, x.off)
			}
		}
	}
}
