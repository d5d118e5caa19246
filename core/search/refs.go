package search

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/search/terms"
)

// Reference types of ref handles.
const (
	RefCall    = "call"
	RefImport  = "import"
	RefTypeRef = "type_ref"
)

// Ref is one place that refers to a symbol, as a RefSource reports it.
type Ref struct {
	Path       string // workspace-relative file of the referring code
	Line       int    // 1-based line of the reference
	Name       string // the referenced name
	Qualifier  string // class (or module) the referenced name belongs to, if any
	Type       string // RefCall, RefImport or RefTypeRef
	From       string // qualified name of the referring definition; "" at top level
	Confidence string // how sure the source is ("resolved", "name-match", ...)
}

// RefSource finds the references to a symbol: callers and importers. The
// code graph is one (GraphRefs); tests can use a fake.
type RefSource interface {
	References(symbol string) []Ref
}

// maxRefs bounds the references one symbol yields.
const maxRefs = 2000

// GraphRefs adapts a code graph: call edges into the symbol's definitions
// (for a class, also into its constructor), and import edges into a
// module when the symbol names a file. The symbol is resolved with
// graph.Find (ids, paths, qualified or bare names). A nil graph yields no
// references.
func GraphRefs(g *graph.Graph) RefSource { return graphRefs{g} }

type graphRefs struct{ g *graph.Graph }

// References returns the call and import sites of the nodes sym resolves to.
func (r graphRefs) References(sym string) []Ref {
	g := r.g
	if g == nil {
		return nil
	}
	var out []Ref
	seen := map[[2]int]bool{} // (edge, line)
	add := func(target int, typ graph.EdgeType) {
		for _, ei := range g.In(target) {
			e := g.Edge(ei)
			if e.Type != typ {
				continue
			}
			to, from := g.Nodes[e.To], g.Nodes[e.From]
			ref := Ref{Path: from.Path, Name: to.Name, From: from.Qual, Confidence: e.Confidence.String()}
			if typ == graph.Call {
				ref.Type = RefCall
				if p := g.Parent(e.To); p >= 0 && g.Nodes[p].Kind == graph.Class {
					ref.Qualifier = g.Nodes[p].Name
				} else if to.Owner != "" {
					ref.Qualifier = lastSegment(strings.ReplaceAll(to.Owner, "::", "."))
				}
			} else {
				ref.Type = RefImport
				ref.Name = to.Path
			}
			lines := e.Lines
			if len(lines) == 0 {
				lines = []int{from.StartLine}
			}
			for _, l := range lines {
				if seen[[2]int{ei, l}] || len(out) >= maxRefs {
					continue
				}
				seen[[2]int{ei, l}] = true
				ref.Line = max(l, 1)
				out = append(out, ref)
			}
		}
	}
	for _, t := range g.Find(sym) {
		n := g.Nodes[t]
		switch n.Kind {
		case graph.Module:
			add(t, graph.Import)
		case graph.Class:
			add(t, graph.Call)
			for _, c := range g.Children(t) {
				switch g.Nodes[c].Name {
				case "__init__", "constructor", "initialize", "new", n.Name:
					add(c, graph.Call)
				}
			}
		default:
			add(t, graph.Call)
		}
	}
	return out
}

// references evaluates (references "sym"): the graph's call and import
// sites plus type references found in the index (signatures naming a
// class or struct the symbol defines). Handles are the definitions that
// contain the sites, scored by how many they hold. The caller holds the
// read lock.
func (ix *Index) references(sym string, src RefSource) *hits {
	h := newHits()
	var rs []Ref
	if src != nil {
		rs = src.References(sym)
	}
	fc := ix.newFileCache()
	rs = append(rs, ix.typeRefs(sym, fc)...)
	seen := map[string]bool{}
	for _, r := range rs {
		f := ix.files[r.Path]
		if f == nil || r.Line < 1 {
			continue
		}
		k := r.Path + "\x00" + r.Type + "\x00" + strconv.Itoa(r.Line) + "\x00" + r.Name
		if seen[k] {
			continue
		}
		seen[k] = true
		fr := fc.get(f)
		src := ix.sourceDoc(f, r.Line, r.From)
		rh := RefHandle{FilePath: r.Path, LineRange: [2]int{r.Line, r.Line}, Name: r.Name, Qualifier: r.Qualifier,
			RefType: r.Type, Confidence: r.Confidence}
		if src >= 0 {
			rh.SourceHandle = ix.docs[src].id
			h.score[uint32(src)] += 1
		}
		if li := fr.lines(); li != nil && r.Line <= li.lines() {
			a, b := li.start(r.Line), li.end(r.Line)
			rh.Span = Span{a, b}
			rh.Preview = preview(fr.content[a:b])
		}
		h.refs = append(h.refs, rh)
	}
	for n, c := range h.score {
		h.score[n] = scoreMember + c
	}
	sort.SliceStable(h.refs, func(i, j int) bool {
		a, b := &h.refs[i], &h.refs[j]
		if a.FilePath != b.FilePath {
			return a.FilePath < b.FilePath
		}
		return a.LineRange[0] < b.LineRange[0]
	})
	return h
}

// sourceDoc picks the handle a reference site belongs to: the definition
// named from, else the innermost definition or section containing the
// line, else a chunk containing it, else the file handle.
func (ix *Index) sourceDoc(f *fileEntry, line int, from string) int {
	best, bestLen := -1, int(^uint(0)>>1)
	for _, n := range f.docs {
		d := &ix.docs[n]
		if from != "" && d.typ.isDef() && d.key == from {
			return int(n)
		}
		if d.lineA <= line && line <= d.lineB {
			l := d.end - d.start
			if d.typ == ntFile {
				l = int(^uint(0)>>1) - 1
			} else if d.typ == ntChunk || d.typ == ntParagraph {
				l += 1 << 40 // prefer definitions and sections
			}
			if l < bestLen {
				best, bestLen = int(n), l
			}
		}
	}
	return best
}

// typeRefs finds definitions whose signature names a class or struct that
// sym defines (parameter, result, base or field types in the signature).
func (ix *Index) typeRefs(sym string, fc *fileCache) []Ref {
	defs := ix.definitions(sym)
	var types []*doc
	for n := range defs.score {
		if d := &ix.docs[n]; d.typ == ntClass || d.typ == ntStruct {
			types = append(types, d)
		}
	}
	if len(types) == 0 {
		return nil
	}
	name := types[0].name
	t, ok := ix.dict[strings.ToLower(name)]
	if !ok {
		return nil
	}
	var out []Ref
	for _, p := range ix.terms[t].post {
		_, sigTF, _, _ := unpackTF(p.tf)
		d := &ix.docs[p.doc]
		if sigTF == 0 || !d.typ.isDef() || d.name == name || !sigNames(d.sig, name) {
			continue
		}
		out = append(out, Ref{Path: d.file.path, Line: lineNaming(d, name, fc.get(d.file)), Name: name, Type: RefTypeRef,
			From: d.key, Qualifier: types[0].parent})
		if len(out) >= maxRefs {
			break
		}
	}
	return out
}

// sigNames reports whether a signature mentions name as a whole word, in
// its exact case.
func sigNames(sig, name string) bool {
	for i := 0; ; {
		j := strings.Index(sig[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		before := a == 0 || !terms.IsWordRune(rune(sig[a-1]))
		after := b == len(sig) || !terms.IsWordRune(rune(sig[b]))
		if before && after {
			return true
		}
		i = a + 1
	}
}

// lineNaming returns the first line of d that mentions name, when the
// file's content is at hand; the handle's first line otherwise.
func lineNaming(d *doc, name string, fr *cachedFile) int {
	if fr.content == nil || d.end > len(fr.content) {
		return d.lineA
	}
	b := fr.content
	if i := bytes.Index(b[d.start:d.end], []byte(name)); i >= 0 {
		return d.lineA + bytes.Count(b[d.start:d.start+i], []byte{'\n'})
	}
	return d.lineA
}
