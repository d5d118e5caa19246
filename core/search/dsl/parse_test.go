package dsl

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/search/dsl.golden")

const (
	casesFile  = "../../../testdata/search/dsl.txtar"
	goldenFile = "../../../testdata/search/dsl.golden"
)

// TestGolden parses every query of the fixture and compares canonical forms
// and error messages with the golden file.
func TestGolden(t *testing.T) {
	ar, err := txtar.ParseFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, f := range ar.Files {
		in := strings.TrimSuffix(string(f.Data), "\n")
		e, err := Parse(in)
		switch {
		case strings.HasPrefix(f.Name, "good/"):
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			// The canonical form parses to itself.
			again, err := Parse(e.String())
			if err != nil || again.String() != e.String() {
				t.Errorf("%s: canonical form %s does not round-trip: %v", f.Name, e, err)
			}
			fmt.Fprintf(&out, "%s\n\t%s\n", f.Name, e)
		case strings.HasPrefix(f.Name, "bad/"):
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("%s: want a parse error, got %v (%v)", f.Name, e, err)
				continue
			}
			fmt.Fprintf(&out, "%s\n\toffset %d\n\t%s\n", f.Name, pe.Offset, strings.ReplaceAll(pe.Error(), "\n", "\n\t"))
		default:
			t.Fatalf("fixture file %s is neither good/ nor bad/", f.Name)
		}
	}
	if *update {
		if err := os.WriteFile(goldenFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != out.String() {
		t.Errorf("golden mismatch (run with -update after reviewing):\n%s", diff(string(want), out.String()))
	}
}

func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n- %s\n+ %s\n", i+1, x, y)
		}
	}
	return out.String()
}

// TestErrorPositions pins offsets, lines and columns of typical mistakes.
func TestErrorPositions(t *testing.T) {
	cases := []struct {
		in         string
		off, l, c  int
		msgContain string
	}{
		{`(grep)`, 5, 1, 6, "grep expects a string"},
		{`(gerp "x")`, 1, 1, 2, `did you mean "grep"`},
		{"(union\n  (grep \"a\")\n  (limit x (grep \"b\")))", 29, 3, 10, "whole number"},
		{`(grep "αβγ" "x")`, 15, 1, 13, "too many arguments"},
		{`(grep "a"`, 9, 1, 10, "missing ')'"},
		{`(in-file "*.go")`, 15, 1, 16, "expects a query expression"},
		{"", 0, 1, 1, "empty query"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a parse error", c.in, err)
			continue
		}
		if pe.Offset != c.off || pe.Line != c.l || pe.Column != c.c || !strings.Contains(pe.Msg, c.msgContain) {
			t.Errorf("Parse(%q): offset %d line %d col %d %q; want %d %d %d containing %q",
				c.in, pe.Offset, pe.Line, pe.Column, pe.Msg, c.off, c.l, c.c, c.msgContain)
		}
	}
}

func TestDepthAndSizeLimits(t *testing.T) {
	deep := strings.Repeat("(union ", MaxDepth+1) + `(grep "a")` + strings.Repeat(")", MaxDepth+1)
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nest deeper") {
		t.Errorf("deep nesting: %v", err)
	}
	long := `(grep "` + strings.Repeat("a", MaxLen) + `")`
	if _, err := Parse(long); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("long input: %v", err)
	}
	if _, err := Parse("(grep \"\xff\")"); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

// FuzzParse: no input panics, and whatever parses round-trips through its
// canonical form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`(grep "a")`, `(limit 3 (union (code "x") (file "*.go")))`, `(in-file "a" (`, `"`, `(grep "\`, ")", "(((("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("bad error %v", err)
			}
			_ = pe.Error()
			return
		}
		again, err := Parse(e.String())
		if err != nil || again.String() != e.String() {
			t.Fatalf("%q: canonical %q does not round-trip: %v", s, e, err)
		}
	})
}
