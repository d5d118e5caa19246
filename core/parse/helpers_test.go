package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// parseSrc parses src as lang with the default registry.
func parseSrc(t *testing.T, lang, path, src string) *facts.File {
	t.Helper()
	r, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	p := r.NewParser()
	defer p.Close()
	f, err := p.Parse(path, lang, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// describe renders a file's facts as one canonical line each:
//
//	def class Outer L8-14 bases=Base decorators=app.route
//	def func Outer.method L10-14 owner=... result=int
//	import spec=..pkg.mod name=thing alias=other star kind=require L3
//	call helper L14 in Outer.method
//	call recv.name L13 in Outer.method new
//	bind x type=Parser in Outer.method / bind x call=NewT in f
//	package main
func describe(f *facts.File) []string {
	var out []string
	in := func(i int) string {
		if i < 0 {
			return "<module>"
		}
		return f.Defs[i].Qual
	}
	if f.Package != "" {
		out = append(out, "package "+f.Package)
	}
	for _, d := range f.Defs {
		s := fmt.Sprintf("def %s %s L%d-%d", d.Kind, d.Qual, d.StartLine, d.EndLine)
		if d.Owner != "" {
			s += " owner=" + d.Owner
		}
		if len(d.Bases) > 0 {
			s += " bases=" + strings.Join(d.Bases, ",")
		}
		if d.Result != "" {
			s += " result=" + d.Result
		}
		if len(d.Decorators) > 0 {
			s += " decorators=" + strings.Join(d.Decorators, ",")
		}
		out = append(out, s)
	}
	for _, im := range f.Imports {
		s := "import spec=" + im.Spec
		if im.Name != "" {
			s += " name=" + im.Name
		}
		if im.Alias != "" {
			s += " alias=" + im.Alias
		}
		if im.Star {
			s += " star"
		}
		if im.Kind != "" {
			s += " kind=" + im.Kind
		}
		out = append(out, fmt.Sprintf("%s L%d", s, im.Line))
	}
	for _, c := range f.Calls {
		name := c.Name
		if c.Recv != "" {
			name = c.Recv + "." + c.Name
		}
		s := fmt.Sprintf("call %s L%d in %s", name, c.Line, in(c.Caller))
		if c.New {
			s += " new"
		}
		out = append(out, s)
	}
	for _, b := range f.Bindings {
		if b.Type != "" {
			out = append(out, fmt.Sprintf("bind %s type=%s in %s", b.Name, b.Type, in(b.Scope)))
		} else {
			out = append(out, fmt.Sprintf("bind %s call=%s in %s", b.Name, b.FromCall, in(b.Scope)))
		}
	}
	return out
}

// checkFacts asserts that every line of want appears in describe(f) and no
// line of absent does. On failure it prints the whole description.
func checkFacts(t *testing.T, f *facts.File, want, absent []string) {
	t.Helper()
	got := describe(f)
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	bad := false
	for _, w := range want {
		if !have[w] {
			t.Errorf("missing fact: %s", w)
			bad = true
		}
	}
	for _, a := range absent {
		if have[a] {
			t.Errorf("unexpected fact: %s", a)
			bad = true
		}
	}
	if bad {
		t.Logf("all facts of %s:\n  %s", f.Path, strings.Join(got, "\n  "))
	}
}
