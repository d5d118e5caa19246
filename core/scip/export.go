package scip

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/lsp"
)

// ExportStats count what an export wrote. Occurrences and Definitions
// are what `scip stats` reports for the index.
type ExportStats struct {
	Documents   int `json:"documents"`
	Occurrences int `json:"occurrences"`
	Definitions int `json:"definitions"`
	References  int `json:"references"`
	Symbols     int `json:"symbols"`
	// Relationships are implementation links (a Go method and its type to
	// the interface method and interface they satisfy).
	Relationships int `json:"relationships"`
	// Unplaced are call or import sites whose callee name (import spec)
	// is not on the recorded line, e.g. a callback called through a
	// parameter (`cb()` reaching `save`): the edge exists in ccd's graph
	// but a SCIP reference needs the name's range.
	Unplaced int `json:"unplaced"`
}

// ExportOptions configure an export.
type ExportOptions struct {
	// ToolVersion is written in the metadata (ccd's version).
	ToolVersion string
}

// Export turns a graph of the workspace at root into a SCIP index:
// one document per file, a definition occurrence per module, class and
// function (with its enclosing range), a reference occurrence per call,
// reference and import site, symbols with kinds, display names, the
// signature as documentation, and implementation relationships. Source
// files are read to place names on their lines. The result is
// deterministic: the same graph and files give the same bytes.
func Export(root string, g *graph.Graph, opt ExportOptions) (*Index, ExportStats, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, ExportStats{}, fmt.Errorf("scip export %s: %w", root, err)
	}
	x := &exporter{g: g, pkgs: newPackages(abs), syms: make([]string, len(g.Nodes)),
		docs: map[string]*Document{}, sources: newSources(abs), seenOcc: map[occKey]bool{}}
	x.symbols()
	x.definitions()
	x.references()
	x.relationships()
	idx := &Index{Metadata: Metadata{ToolName: "ccd", ToolVersion: opt.ToolVersion,
		ProjectRoot: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs) + "/"}).String(), UTF8: true}}
	paths := make([]string, 0, len(x.docs))
	for p := range x.docs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		d := x.docs[p]
		sort.Slice(d.Occurrences, func(i, j int) bool { return lessOcc(&d.Occurrences[i], &d.Occurrences[j]) })
		sort.Slice(d.Symbols, func(i, j int) bool { return d.Symbols[i].Symbol < d.Symbols[j].Symbol })
		idx.Documents = append(idx.Documents, *d)
		x.stats.Occurrences += len(d.Occurrences)
		x.stats.Symbols += len(d.Symbols)
	}
	x.stats.Documents = len(idx.Documents)
	return idx, x.stats, nil
}

type exporter struct {
	g    *graph.Graph
	pkgs *packages
	syms []string // node index → symbol
	docs map[string]*Document
	*sources
	seenOcc map[occKey]bool
	defs    map[int][]int32 // node index → definition range, as placed
	stats   ExportStats
}

type occKey struct {
	path       string
	line, col  int32
	sym        string
	definition bool
}

func lessOcc(a, b *Occurrence) bool {
	for k := 0; k < len(a.Range) && k < len(b.Range); k++ {
		if a.Range[k] != b.Range[k] {
			return a.Range[k] < b.Range[k]
		}
	}
	if len(a.Range) != len(b.Range) {
		return len(a.Range) < len(b.Range)
	}
	if a.Symbol != b.Symbol {
		return a.Symbol < b.Symbol
	}
	return a.Roles < b.Roles
}

// doc returns the document of a file, creating it.
func (x *exporter) doc(n *graph.Node) *Document {
	d := x.docs[n.Path]
	if d == nil {
		d = &Document{RelativePath: n.Path, Language: n.Lang, PositionEncoding: 1}
		x.docs[n.Path] = d
	}
	return d
}

// symbols gives every node its symbol: modules a namespace per directory
// and file, classes a type and functions a method below their parent
// (a Go method below its receiver type), disambiguated when two nodes
// would share one.
func (x *exporter) symbols() {
	g := x.g
	used := map[string]int{}
	var sym func(i int) string
	sym = func(i int) string {
		if x.syms[i] != "" {
			return x.syms[i]
		}
		n := g.Nodes[i]
		var s string
		if n.Kind == graph.Module {
			pk := x.pkgs.of(n.Path)
			s = pk.prefix() + fileDescriptors(pk, n.Path)
		} else {
			parent := -1
			if n.Owner != "" {
				if j, ok := g.Index(n.Owner); ok {
					parent = j
				}
			}
			if parent < 0 {
				parent = g.Parent(i)
			}
			var base string
			if parent >= 0 {
				base = sym(parent)
			} else {
				pk := x.pkgs.of(n.Path)
				base = pk.prefix() + fileDescriptors(pk, n.Path)
			}
			name := n.Name
			if name == "" {
				name = n.Qual
			}
			if n.Kind == graph.Class {
				s = base + ident(name) + "#"
				if _, dup := used[s]; dup {
					s = base + ident(name+"@"+strconv.Itoa(n.StartLine)) + "#"
				}
			} else {
				s = base + ident(name) + "()."
				if _, dup := used[s]; dup {
					s = base + ident(name) + "(" + strconv.Itoa(n.StartLine) + ")."
				}
			}
		}
		used[s] = i
		x.syms[i] = s
		return s
	}
	for i := range g.Nodes {
		sym(i)
	}
}

// definitions writes a definition occurrence and symbol information for
// every node.
func (x *exporter) definitions() {
	g := x.g
	for i, n := range g.Nodes {
		d := x.doc(n)
		info := SymbolInformation{Symbol: x.syms[i], DisplayName: n.Name}
		occ := Occurrence{Symbol: x.syms[i], Roles: RoleDefinition}
		switch n.Kind {
		case graph.Module:
			info.Kind = KindFile
			info.DisplayName = n.Path
			occ.Range = []int32{0, 0, 0}
		default:
			info.Kind = x.kind(i)
			if n.Signature != "" {
				info.Documentation = []string{"```" + n.Lang + "\n" + n.Signature + "\n```"}
			}
			occ.Range = x.defRange(i)
			ls := x.lines(n.Path)
			if end := n.EndLine; end >= n.StartLine && end >= 1 && end <= len(ls) {
				occ.EnclosingRange = []int32{int32(n.StartLine - 1), 0, int32(end - 1), int32(len(ls[end-1]))}
			}
		}
		if n.Test {
			occ.Roles |= RoleTest
		}
		d.Occurrences = append(d.Occurrences, occ)
		d.Symbols = append(d.Symbols, info)
		x.stats.Definitions++
	}
}

// kind is the SCIP kind of a class or function node.
func (x *exporter) kind(i int) int32 {
	n := x.g.Nodes[i]
	if n.Kind == graph.Class {
		if strings.Contains(n.Signature, "interface") || strings.Contains(n.Signature, "protocol") || strings.Contains(n.Signature, "trait") {
			return KindInterface
		}
		return KindClass
	}
	if n.Owner != "" {
		return KindMethod
	}
	if p := x.g.Parent(i); p >= 0 && x.g.Nodes[p].Kind == graph.Class {
		return KindMethod
	}
	return KindFunction
}

// nameRange finds a definition's name on its first lines; without it (an
// anonymous function) the range is its keyword when its first line has
// one, else the first word of that line.
func (x *exporter) nameRange(n *graph.Node) []int32 {
	ls := x.lines(n.Path)
	for l := n.StartLine; l >= 1 && l <= len(ls) && l <= n.EndLine && l < n.StartLine+30; l++ {
		if hits := lsp.FindWord(ls[l-1], n.Name); len(hits) > 0 {
			h := declaredAt(ls[l-1], hits)
			return []int32{int32(l - 1), int32(h), int32(h + len(n.Name))}
		}
	}
	l := n.StartLine
	if l < 1 {
		l = 1
	}
	if l > len(ls) {
		return []int32{int32(l - 1), 0, 0}
	}
	line := ls[l-1]
	for _, kw := range []string{"lambda", "function", "func"} {
		// An anonymous function: its keyword.
		if hits := lsp.FindWord(line, kw); len(hits) == 1 {
			return []int32{int32(l - 1), int32(hits[0]), int32(hits[0] + len(kw))}
		}
	}
	start := len(line) - len(bytes.TrimLeft(line, " \t"))
	end := start
	for end < len(line) && lsp.IsIdentByte(line[end]) {
		end++
	}
	return []int32{int32(l - 1), int32(start), int32(end)}
}

// declaredAt picks, among the places a definition's name appears on a
// line, the one a declaration keyword introduces (`defineGetter(req,
// 'protocol', function protocol() {` declares the second); else the first.
func declaredAt(line []byte, hits []int) int {
	if len(hits) > 1 {
		for _, h := range hits {
			before := bytes.TrimRight(line[:h], " \t*")
			for _, kw := range []string{"function", "def", "class", "func", "fn"} {
				if bytes.HasSuffix(before, []byte(kw)) {
					if k := len(before) - len(kw); k == 0 || !lsp.IsIdentByte(before[k-1]) {
						return h
					}
				}
			}
		}
	}
	return hits[0]
}

// references writes a reference occurrence at each call, reference and
// import site whose name is on its line.
func (x *exporter) references() {
	g := x.g
	for ei := range g.NumEdges() {
		e := g.Edge(ei)
		if e.Type == graph.Contains {
			continue
		}
		from := g.Nodes[e.From]
		ls := x.lines(from.Path)
		for _, l := range e.Lines {
			if l < 1 || l > len(ls) {
				x.stats.Unplaced++
				continue
			}
			line := ls[l-1]
			var start, end int
			ok := false
			if e.Type == graph.Import {
				start, end, ok = specRange(line, e.Spec)
			} else {
				for _, name := range calledNames(g, e.To) {
					if c, found := x.siteColumn(line, l, name, e.Type, e.To); found {
						start, end, ok = c, c+len(name), true
						break
					}
				}
			}
			if !ok {
				x.stats.Unplaced++
				continue
			}
			k := occKey{from.Path, int32(l - 1), int32(start), x.syms[e.To], false}
			if x.seenOcc[k] {
				continue
			}
			x.seenOcc[k] = true
			occ := Occurrence{Range: []int32{int32(l - 1), int32(start), int32(end)}, Symbol: x.syms[e.To]}
			if e.Type == graph.Import {
				occ.Roles = RoleImport
			}
			if from.Test {
				occ.Roles |= RoleTest
			}
			d := x.doc(from)
			d.Occurrences = append(d.Occurrences, occ)
			x.stats.References++
		}
	}
}

// siteColumn finds where a call or reference of name is written on line
// l: for a call, the name followed by an argument list (or a decorator's
// @ before it); for a reference, the name anywhere but at the target's own
// definition. A call reached through a value (`cb()` calling save) has no
// such place.
func (x *exporter) siteColumn(text []byte, l int, name string, typ graph.EdgeType, to int) (int, bool) {
	def := x.defRange(to)
	for _, h := range lsp.FindWord(text, name) {
		if len(def) == 3 && int(def[0]) == l-1 && int(def[1]) == h {
			continue
		}
		if typ != graph.Call || bareCalls[x.g.Nodes[to].Lang] {
			return h, true
		}
		rest := bytes.TrimLeft(text[h+len(name):], " \t")
		if len(rest) == 0 || rest[0] == '(' || rest[0] == '<' || rest[0] == '[' || rest[0] == '`' || h > 0 && text[h-1] == '@' {
			// An argument list (or a call continued on the next line).
			return h, true
		}
	}
	return 0, false
}

// bareCalls are the languages whose calls need no argument list.
var bareCalls = map[string]bool{"bash": true, "ruby": true}

// defRange is the range of node i's definition occurrence.
func (x *exporter) defRange(i int) []int32 {
	if x.defs == nil {
		x.defs = map[int][]int32{}
	}
	r, ok := x.defs[i]
	if !ok {
		r = x.nameRange(x.g.Nodes[i])
		x.defs[i] = r
	}
	return r
}

// specRange finds an import spec on its line, quotes and brackets left
// out of the range.
func specRange(line []byte, spec string) (start, end int, ok bool) {
	s := strings.Trim(spec, "\"'`<>")
	if s == "" {
		return 0, 0, false
	}
	if i := bytes.Index(line, []byte(s)); i >= 0 {
		return i, i + len(s), true
	}
	return 0, 0, false
}

// relationships links Go methods and their types to the interface
// methods and interfaces they implement.
func (x *exporter) relationships() {
	g := x.g
	type link struct{ from, to int }
	var links []link
	seen := map[link]bool{}
	imports := x.importedDirs()
	for i, n := range g.Nodes {
		if n.Kind != graph.Func || n.Lang != "go" {
			continue
		}
		for _, im := range g.Implements(i) {
			// Method names alone say a type satisfies interfaces it has
			// never heard of (container/ring's Ring has a Do): only
			// interfaces of the type's own package or of a package its
			// file imports count.
			if d := path.Dir(g.Nodes[im].Path); d != path.Dir(n.Path) && !imports[n.Path][d] {
				continue
			}
			links = append(links, link{i, im})
			t, it := x.owner(i), x.owner(im)
			if t >= 0 && it >= 0 && !seen[link{t, it}] {
				seen[link{t, it}] = true
				links = append(links, link{t, it})
			}
		}
	}
	rels := map[int][]Relationship{}
	for _, l := range links {
		rels[l.from] = append(rels[l.from], Relationship{Symbol: x.syms[l.to], IsImplementation: true})
	}
	for i, rs := range rels {
		sort.Slice(rs, func(a, b int) bool { return rs[a].Symbol < rs[b].Symbol })
		d := x.docs[g.Nodes[i].Path]
		for k := range d.Symbols {
			if d.Symbols[k].Symbol == x.syms[i] {
				d.Symbols[k].Relationships = rs
				x.stats.Relationships += len(rs)
			}
		}
	}
}

// importedDirs maps each file to the directories its imports reach.
func (x *exporter) importedDirs() map[string]map[string]bool {
	g := x.g
	out := map[string]map[string]bool{}
	for ei := range g.NumEdges() {
		from, to, typ := g.EdgeEnds(ei)
		if typ != graph.Import {
			continue
		}
		f := g.Nodes[from].Path
		if out[f] == nil {
			out[f] = map[string]bool{}
		}
		out[f][path.Dir(g.Nodes[to].Path)] = true
	}
	return out
}

// owner is the class a method belongs to, or -1.
func (x *exporter) owner(i int) int {
	if o := x.g.Nodes[i].Owner; o != "" {
		if j, ok := x.g.Index(o); ok {
			return j
		}
	}
	if p := x.g.Parent(i); p >= 0 && x.g.Nodes[p].Kind == graph.Class {
		return p
	}
	return -1
}

// WriteFile exports g (the graph of the workspace at root) to a SCIP
// file, written to a temporary file first and renamed, so a reader never
// sees half an index.
func WriteFile(file, root string, g *graph.Graph, opt ExportOptions) (ExportStats, error) {
	idx, st, err := Export(root, g, opt)
	if err != nil {
		return st, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".ccd-scip-*")
	if err != nil {
		return st, fmt.Errorf("write %s: %w", file, err)
	}
	_, err = tmp.Write(idx.Marshal())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return st, fmt.Errorf("write %s: %w", file, err)
	}
	return st, nil
}
