package resolve

import (
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

func TestTokens(t *testing.T) {
	py, goSpec := specFor("python"), specFor("go")
	tests := []struct {
		spec *langSpec
		in   []string
		want []string
	}{
		{py, []string{"self.repo.save"}, []string{"repo", "save"}},
		{goSpec, []string{"self.x"}, []string{"self", "x"}}, // Go has no self names
		{py, []string{"pkg::mod::T", "*Server", "a->b"}, []string{"pkg", "mod", "T", "Server", "a", "b"}},
		{py, []string{"@ivar", "", "  "}, []string{"ivar"}},
		{py, []string{"Über_1 $x"}, []string{"Über_1", "$x"}},
	}
	for _, tc := range tests {
		if got := tokens(tc.spec, nil, tc.in...); !slices.Equal(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSurfaceDiff checks what a change of a file's facts tells other
// files: nothing for what only the file itself sees, its names for what
// others can look up.
func TestSurfaceDiff(t *testing.T) {
	base := func() *facts.File {
		return &facts.File{Path: "a.py", Lang: "python",
			Defs: []facts.Def{
				{Name: "Repo", Qual: "Repo", Kind: facts.Class, Parent: -1, StartLine: 1, EndLine: 9},
				{Name: "save", Qual: "Repo.save", Kind: facts.Func, Parent: 0, StartLine: 2, EndLine: 4, Signature: "def save(self)"},
				{Name: "make", Qual: "make", Kind: facts.Func, Parent: -1, StartLine: 10, EndLine: 20, Result: "Repo"},
				{Name: "inner", Qual: "make.inner", Kind: facts.Func, Parent: 2, StartLine: 11, EndLine: 12},
			},
			Bindings: []facts.Binding{
				{Name: "x", FromCall: "Repo", Scope: 2, Line: 13},
				{Name: "self.conn", FromCall: "connect", Scope: 1, Line: 3},
			},
			Imports: []facts.Import{{Spec: "os", Line: 1}, {Spec: "b", Name: "helper", Line: 2}},
			Calls:   []facts.Call{{Name: "connect", Caller: 1, Line: 3}},
		}
	}
	tests := []struct {
		name   string
		edit   func(f *facts.File)
		global []string
		local  []string
		wide   bool
	}{
		{name: "lines, calls and signatures are not seen", edit: func(f *facts.File) {
			for i := range f.Defs {
				f.Defs[i].StartLine += 5
				f.Defs[i].EndLine += 5
			}
			f.Defs[1].Signature = "def save(self, force=False)"
			f.Calls = append(f.Calls, facts.Call{Name: "print", Caller: 2, Line: 14})
			f.Bindings[0].Line = 99
		}},
		{name: "a new method names itself and its class", edit: func(f *facts.File) {
			f.Defs = append(f.Defs, facts.Def{Name: "load", Qual: "Repo.load", Kind: facts.Func, Parent: 0})
		}, global: []string{"load", "Repo"}},
		{name: "a result type", edit: func(f *facts.File) { f.Defs[2].Result = "Other" }, global: []string{"make"}},
		{name: "a nested function is local to its scope", edit: func(f *facts.File) {
			f.Defs[3].Name, f.Defs[3].Qual = "inner2", "make.inner2"
		}, local: []string{localKey("inner", "make"), localKey("inner2", "make")}},
		{name: "a local variable is local to its scope", edit: func(f *facts.File) { f.Bindings[0].FromCall = "Other" },
			local: []string{localKey("x", "make")}},
		{name: "a field is global", edit: func(f *facts.File) { f.Bindings[1].FromCall = "other" }, global: []string{"conn"}},
		{name: "a module import is local", edit: func(f *facts.File) {
			f.Imports = append(f.Imports, facts.Import{Spec: "sys"})
		}, local: []string{localKey("sys", "")}},
		{name: "a symbol import may be re-exported", edit: func(f *facts.File) {
			f.Imports[1].Alias = "assist"
		}, global: []string{"helper", "assist"}},
		{name: "a wildcard import is wide", edit: func(f *facts.File) {
			f.Imports = append(f.Imports, facts.Import{Spec: "c", Star: true})
		}, wide: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := base()
			tc.edit(cur)
			global, local, wide := surfaceDiff(surfaceOf(base()), surfaceOf(cur))
			slices.Sort(global)
			slices.Sort(local)
			want := slices.Clone(tc.global)
			slices.Sort(want)
			wantLocal := slices.Clone(tc.local)
			slices.Sort(wantLocal)
			if !slices.Equal(slices.Compact(global), want) || !slices.Equal(slices.Compact(local), wantLocal) || wide != tc.wide {
				t.Errorf("global %q local %q wide %v, want %q %q %v", global, local, wide, want, wantLocal, tc.wide)
			}
		})
	}
}
