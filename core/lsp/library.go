package lsp

import (
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// libraryFilter tells, without asking a server, which call sites of one
// file certainly call library code: a server could only answer with a
// place outside the workspace, so asking is a waste of the budget.
type libraryFilter struct {
	names    map[string]bool // workspace function and class names
	external map[string]bool // local names bound only by imports that reach no workspace file
	imported map[string]bool // every local name an import binds
	bindings []facts.Binding // the file's typed bindings
}

// newLibraryFilter prepares the filter for file f, whose module node is
// module (-1 if none), given the workspace's definition names.
func newLibraryFilter(g *graph.Graph, f *facts.File, module int, names map[string]bool) *libraryFilter {
	lf := &libraryFilter{names: names, external: map[string]bool{}, imported: map[string]bool{}, bindings: f.Bindings}
	inWorkspace := map[string]bool{}
	if module >= 0 {
		for _, ei := range g.Out(module) {
			if e := g.Edge(ei); e.Type == graph.Import && e.Spec != "" {
				inWorkspace[e.Spec] = true
			}
		}
	}
	internal := map[string]bool{}
	for _, im := range f.Imports {
		for _, local := range importNames(im) {
			lf.imported[local] = true
			if inWorkspace[im.Spec] || im.Star {
				internal[local] = true
			} else {
				lf.external[local] = true
			}
		}
	}
	for local := range internal {
		delete(lf.external, local)
	}
	return lf
}

// importNames returns the local names an import may bind: the alias, the
// imported name, or the module path's first and last segments (Python
// binds `a` for `import a.b`, Go binds `b` for "a/b").
func importNames(im facts.Import) []string {
	if im.Alias != "" {
		return []string{im.Alias}
	}
	if im.Name != "" {
		return []string{im.Name}
	}
	spec := strings.Trim(im.Spec, `"'<>`)
	seps := func(r rune) bool { return r == '/' || r == '.' || r == ':' || r == '\\' }
	parts := strings.FieldsFunc(spec, seps)
	if len(parts) == 0 {
		return nil
	}
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) >= 2 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2] // gopkg.in/yaml.v3, example.com/mod/v2
	}
	last = strings.TrimPrefix(strings.TrimPrefix(last, "go-"), "python-")
	return []string{parts[0], last}
}

// library reports whether call c (made in the definition with index
// caller, -1 at module level) certainly calls library code:
//
//   - a bare call of a name that no workspace definition has and no import
//     binds (builtins: len, print, isinstance, ...);
//   - a call qualified by a name that only imports of library modules
//     bind (strings.Split, os.path.join);
//   - a method call on a variable whose declared or constructed type is
//     qualified that way (var b bytes.Buffer; b.WriteString(...)).
func (lf *libraryFilter) library(c facts.Call) bool {
	if c.Recv == "" {
		return !lf.names[c.Name] && !lf.imported[c.Name]
	}
	head := qualifierHead(c.Recv)
	if lf.external[head] {
		return true
	}
	if head != c.Recv {
		return false // a.b.f(): the type of a.b is unknown here
	}
	for _, b := range lf.bindings {
		if b.Name != head || (b.Scope != c.Caller && b.Scope != -1) {
			continue
		}
		typ := b.Type
		if typ == "" {
			typ = b.FromCall
		}
		typ = strings.TrimLeft(typ, "*&[]")
		if q := qualifierHead(typ); q != typ && lf.external[q] {
			return true
		}
	}
	return false
}

// qualifierHead returns the first segment of a receiver as written:
// "os" for "os.path", "a" for "a::b", "x" for "x?.y".
func qualifierHead(recv string) string {
	if i := strings.IndexAny(recv, ".:?-(["); i > 0 {
		return recv[:i]
	}
	return recv
}
