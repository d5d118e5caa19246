package search

import (
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

func TestDocSpans(t *testing.T) {
	def := func(src, at, end string) facts.Def {
		a := strings.Index(src, at)
		b := strings.Index(src, end) + len(end)
		return facts.Def{Name: "x", Qual: "x", StartByte: a, EndByte: b, Parent: -1}
	}
	goSrc := "// Copyright line.\n\n// Package p does things.\npackage p\n\n// F adds numbers.\n//go:noinline\nfunc F() {\n\t// not a doc\n}\n"
	pySrc := "#!/usr/bin/env python\n\"\"\"Module doc.\"\"\"\n\n@cache\ndef f(a,\n      b):\n    '''Function doc.'''\n    return a\n\ndef g():\n    x = '''not a doc'''\n"
	cases := []struct {
		name, lang, src string
		defs            []facts.Def
		want            []string
	}{
		{"go", "go", goSrc, []facts.Def{def(goSrc, "func F", "}")},
			[]string{"// Package p does things.\n", "// F adds numbers.\n"}},
		{"python", "python", pySrc, []facts.Def{def(pySrc, "def f", "return a"), def(pySrc, "def g", "doc'''")},
			[]string{`"""Module doc."""`, `'''Function doc.'''`}},
		{"no language", "", "text\n", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			li := newLineIndex([]byte(c.src))
			var got []string
			for _, s := range docSpans([]byte(c.src), c.lang, c.defs, li) {
				got = append(got, c.src[s.Start:s.End])
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("docSpans = %q, want %q", got, c.want)
			}
		})
	}
}

func TestIntersect(t *testing.T) {
	spans := []Span{{0, 5}, {10, 20}, {30, 40}}
	cases := []struct {
		s    Span
		want []Span
	}{
		{Span{3, 12}, []Span{{3, 5}, {10, 12}}},
		{Span{5, 10}, nil},
		{Span{15, 35}, []Span{{15, 20}, {30, 35}}},
		{Span{41, 50}, nil},
	}
	for _, c := range cases {
		got := intersect(c.s, spans)
		if len(got) != len(c.want) {
			t.Errorf("intersect(%v) = %v, want %v", c.s, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("intersect(%v) = %v, want %v", c.s, got, c.want)
			}
		}
	}
}

func TestExportedName(t *testing.T) {
	cases := []struct {
		lang, name string
		want       bool
	}{
		{"go", "ReadFull", true},
		{"go", "readFull", false},
		{"go", "_", false},
		{"go", "", false},
		{"python", "Public", false}, // Python exports by no case rule
		{"python", "_private", false},
	}
	for _, c := range cases {
		if got := exportedName(c.lang, c.name); got != c.want {
			t.Errorf("exportedName(%q, %q) = %v, want %v", c.lang, c.name, got, c.want)
		}
	}
}

// TestDocField: a definition's doc comment counts in the doc field besides
// the body, and lifts the definition it documents above one that holds
// the same words in its code.
func TestDocField(t *testing.T) {
	documented := "package a\n\n// Group waits until every worker has finished.\nfunc Group() {\n\tx := 1\n\t_ = x\n}\n"
	inCode := "package b\n\nfunc helper() {\n\tuntil := waits(worker, worker)\n\tfinished(until, finished(worker))\n}\n"
	defOf := func(src, name string) []facts.Def {
		a := strings.Index(src, "func "+name)
		return []facts.Def{{Name: name, Qual: name, Kind: facts.Func, StartByte: a, EndByte: len(src) - 1, Parent: -1}}
	}
	pf := prepare("a/a.go", []byte(documented), "go", defOf(documented, "Group"), false)
	var d *doc
	for i := range pf.docs {
		if pf.docs[i].name == "Group" {
			d = &pf.docs[i]
		}
	}
	if d == nil || d.lens[fDoc] != 7 || d.lens[fBody] < d.lens[fDoc] {
		t.Fatalf("Group's field lengths %v: want 7 doc terms, counted in the body too", d)
	}
	ix := New()
	ix.Update("a/a.go", []byte(documented), "go", defOf(documented, "Group"))
	ix.Update("b/b.go", []byte(inCode), "go", defOf(inCode, "helper"))
	r, err := ix.Query(QueryParams{Pattern: "wait until workers finished"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Handles) == 0 || r.Handles[0].FilePath != "a/a.go" {
		t.Errorf("got %v, want the documented a/a.go first", labels(r.Handles))
	}
}
