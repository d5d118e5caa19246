package scip

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/lsp"
)

// ImportOptions configure an import.
type ImportOptions struct {
	// Changed reports whether a file (slash path relative to the root)
	// changed since the index was made; its document is not used, and no
	// symbol defined in it is trusted. Nil: every file is as indexed.
	Changed func(rel string) bool
}

// ImportStats count what an import did.
type ImportStats struct {
	Tool string `json:"tool"` // the indexer ("scip-go 0.1.26")
	// Documents in the index; Used those of files in the graph and
	// unchanged; Changed those left out as changed since the index.
	Documents int `json:"documents"`
	Used      int `json:"used"`
	Changed   int `json:"changed"`
	// Sites are ccd's call and reference sites in used documents; Found
	// those with an occurrence of the callee's name in the index.
	Sites int `json:"sites"`
	Found int `json:"found"`
	// Confirmed sites: the index names a callee ccd already had there;
	// Redirected: it names another one (ccd's weak edge there is dropped);
	// Added are new edges (sites ccd had no edge for, and references the
	// index has where ccd saw no call).
	Confirmed  int `json:"confirmed"`
	Redirected int `json:"redirected"`
	Added      int `json:"added"`
	// External sites call something defined outside the workspace; Local
	// ones a local value (a parameter, a variable: the index says
	// nothing about what it holds); Unmapped ones a workspace symbol that
	// is no function or class of the graph (a field, a variable).
	External int `json:"external"`
	Local    int `json:"local"`
	Unmapped int `json:"unmapped"`
	// Duration is the import's wall time (reading the index not included).
	Duration time.Duration `json:"duration"`
}

// Import turns a precise SCIP index of the workspace at root into a
// refinement of g, the graph built from files: call and reference edges
// with confidence graph.Precise at every site whose callee the index
// resolves to a function or class of g (confirming or adding edges), and
// ccd's weak edges (name-match, inferred) at sites where the index names
// another callee, as stale. References the index has where ccd saw no call
// become edges too: a call when an argument list follows the name, a
// reference edge when a function is named as a value.
func Import(root string, g *graph.Graph, files []*facts.File, idx *Index, opt ImportOptions) (*lsp.Refinement, ImportStats) {
	t0 := time.Now()
	abs, _ := filepath.Abs(root)
	im := &importer{g: g, idx: idx, opt: opt, sources: newSources(abs), changed: map[string]bool{},
		defs: map[string]defLoc{}, more: map[string][]defLoc{}, nodeOf: map[string]int{}, edges: map[siteKey]graph.EdgeType{}, stale: map[siteKey]graph.Confidence{}}
	im.stats.Tool = strings.TrimSpace(idx.Metadata.ToolName + " " + idx.Metadata.ToolVersion)
	im.stats.Documents = len(idx.Documents)
	im.definitions()
	byPath := map[string]*facts.File{}
	for _, f := range files {
		if f != nil {
			byPath[f.Path] = f
		}
	}
	for di := range idx.Documents {
		d := &idx.Documents[di]
		if !im.usable(d.RelativePath) {
			continue
		}
		im.stats.Used++
		im.document(d, byPath[d.RelativePath])
	}
	ref := im.result()
	im.stats.Duration = time.Since(t0)
	return ref, im.stats
}

type importer struct {
	g   *graph.Graph
	idx *Index
	opt ImportOptions
	*sources
	changed map[string]bool // opt.Changed's answers
	defs    map[string]defLoc
	// more holds the further definitions of symbols defined more than
	// once (an indexer giving nested functions of one name one symbol).
	more map[string][]defLoc
	// nodeOf caches symbol → node (-1: none in the graph).
	nodeOf map[string]int
	edges  map[siteKey]graph.EdgeType
	stale  map[siteKey]graph.Confidence
	stats  ImportStats
}

type defLoc struct {
	path string
	line int // 1-based
	col  int // byte offset
}

type siteKey struct{ from, to, line int }

// usable reports whether a document's file is in the graph, readable and
// unchanged since the index.
func (im *importer) usable(rel string) bool {
	if len(im.g.InFile(rel)) == 0 {
		return false
	}
	if im.isChanged(rel) {
		return false
	}
	return im.lines(rel) != nil
}

// isChanged is opt.Changed, asked once per file.
func (im *importer) isChanged(rel string) bool {
	if im.opt.Changed == nil {
		return false
	}
	c, ok := im.changed[rel]
	if !ok {
		c = im.opt.Changed(rel)
		im.changed[rel] = c
	}
	return c
}

// byteCol converts an occurrence's column to a byte offset in line.
func byteCol(line []byte, col int32, enc int32) int {
	switch enc {
	case 1: // UTF-8 code units: bytes
		return min(int(col), len(line))
	case 3: // UTF-32: runes
		i := 0
		for n := int32(0); n < col && i < len(line); n++ {
			_, size := utf8.DecodeRune(line[i:])
			i += size
		}
		return i
	}
	return lsp.ByteColUTF16(line, uint32(max(col, 0)))
}

// definitions records where each symbol is defined, in files that are
// usable; the changes of the tally are counted once per document.
func (im *importer) definitions() {
	for di := range im.idx.Documents {
		d := &im.idx.Documents[di]
		if len(im.g.InFile(d.RelativePath)) > 0 && im.isChanged(d.RelativePath) {
			im.stats.Changed++
			continue
		}
		var ls [][]byte
		for oi := range d.Occurrences {
			o := &d.Occurrences[oi]
			if o.Roles&RoleDefinition == 0 || strings.HasPrefix(o.Symbol, "local ") || len(o.Range) < 3 {
				continue
			}
			if ls == nil {
				if ls = im.lines(d.RelativePath); ls == nil {
					break
				}
			}
			l := int(o.Range[0])
			if l < 0 || l >= len(ls) {
				continue
			}
			loc := defLoc{path: d.RelativePath, line: l + 1, col: byteCol(ls[l], o.Range[1], d.PositionEncoding)}
			if _, ok := im.defs[o.Symbol]; ok {
				im.more[o.Symbol] = append(im.more[o.Symbol], loc)
				continue
			}
			im.defs[o.Symbol] = loc
		}
	}
}

// node maps a symbol to the graph's function or class it defines: the
// innermost one around the definition whose name is the identifier there.
// It returns -1 and whether the symbol is defined in the index at all.
func (im *importer) node(sym string) (int, bool) {
	if i, ok := im.nodeOf[sym]; ok {
		return i, true
	}
	loc, ok := im.defs[sym]
	if !ok {
		return -1, false
	}
	if len(im.more[sym]) > 0 {
		// Defined in several places: which one a reference means is not
		// known.
		im.nodeOf[sym] = -1
		return -1, true
	}
	best := im.nodeAtDef(loc)
	im.nodeOf[sym] = best
	return best, true
}

// nodeAtDef is the innermost function or class around a definition whose
// name is the identifier there, or -1.
func (im *importer) nodeAtDef(loc defLoc) int {
	best := -1
	ls := im.lines(loc.path)
	ident := ""
	if loc.line-1 < len(ls) {
		line := ls[loc.line-1]
		j := loc.col
		for j < len(line) && lsp.IsIdentByte(line[j]) {
			j++
		}
		ident = string(line[min(loc.col, len(line)):j])
	}
	for _, i := range im.g.InFile(loc.path) {
		n := im.g.Nodes[i]
		if n.Kind == graph.Module || n.StartLine > loc.line || loc.line > n.EndLine || n.Name != ident {
			continue
		}
		if best < 0 || n.EndLine-n.StartLine < im.g.Nodes[best].EndLine-im.g.Nodes[best].StartLine {
			best = i
		}
	}
	return best
}

// document resolves the call and reference sites of one file with the
// index, then adds the references the index has where ccd saw none.
func (im *importer) document(d *Document, f *facts.File) {
	g := im.g
	ls := im.lines(d.RelativePath)
	type pos struct{ line, col int }
	at := map[pos][]int{} // reference occurrences by start
	for oi := range d.Occurrences {
		o := &d.Occurrences[oi]
		if o.Roles&(RoleDefinition|RoleImport) != 0 || len(o.Range) < 3 {
			continue
		}
		l := int(o.Range[0])
		if l < 0 || l >= len(ls) {
			continue
		}
		p := pos{l + 1, byteCol(ls[l], o.Range[1], d.PositionEncoding)}
		at[p] = append(at[p], oi)
	}
	used := map[int]bool{}
	if f != nil {
		defNode, module, ok := lsp.CallerNodes(g, f)
		if !ok {
			return
		}
		for _, c := range f.Calls {
			caller := module
			if c.Caller >= 0 && c.Caller < len(defNode) {
				caller = defNode[c.Caller]
			}
			isCall := c.IsCallSite()
			if caller < 0 || c.Name == "" || (!isCall && !c.Ref) {
				continue
			}
			im.stats.Sites++
			var occs []int
			for l := c.Line; l <= c.Line+2 && l <= len(ls) && occs == nil; l++ {
				if col, ok := lsp.CallColumn(ls[l-1], c.Name, c.Recv); ok {
					occs = at[pos{l, col}]
				}
			}
			if occs == nil {
				continue
			}
			im.stats.Found++
			for _, oi := range occs {
				used[oi] = true
			}
			typ := graph.Call
			if !isCall {
				typ = graph.Ref
			}
			im.site(caller, c.Name, c.Line, typ, d, occs)
		}
	}
	// References where ccd saw no call: calls and functions named as
	// values that tree-sitter missed.
	var rest []int
	for _, oi := range flat(at) {
		if !used[oi] {
			rest = append(rest, oi)
		}
	}
	sort.Ints(rest)
	for _, oi := range rest {
		o := &d.Occurrences[oi]
		t, _ := im.node(o.Symbol)
		if t < 0 {
			continue
		}
		l := int(o.Range[0])
		line := ls[l]
		start := byteCol(line, o.Range[1], d.PositionEncoding)
		end := start
		for end < len(line) && lsp.IsIdentByte(line[end]) {
			end++
		}
		if string(line[start:end]) != g.Nodes[t].Name && !(g.Nodes[t].Kind == graph.Class) {
			continue // the file is not as indexed here
		}
		if isDefinitionName(line[:start]) {
			continue // a redefinition (a property's setter): not a use
		}
		rest := strings.TrimLeft(string(line[end:]), " \t")
		typ := graph.Ref
		if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "<") && strings.Contains(rest, ">(") {
			typ = graph.Call
		}
		tn := g.Nodes[t]
		switch {
		case tn.Kind == graph.Class && typ == graph.Call && tn.Lang != "go":
			t = constructor(g, t)
		case tn.Kind != graph.Func:
			continue // a type named in an annotation, a base class
		}
		caller := im.enclosing(d.RelativePath, l+1)
		if caller < 0 || im.has(caller, t, l+1, typ) || im.importLine(caller, l+1, line) {
			continue
		}
		im.edges[siteKey{caller, t, l + 1}] = typ
	}
}

func flat[K comparable](m map[K][]int) []int {
	var out []int
	for _, xs := range m {
		out = append(out, xs...)
	}
	return out
}

// site records what the index says about one of ccd's sites: caller
// calls (or names) name on line, and occs are the index's occurrences
// there.
func (im *importer) site(caller int, name string, line int, typ graph.EdgeType, d *Document, occs []int) {
	g := im.g
	var targets []int
	external, local, unmapped := false, false, false
	for _, oi := range occs {
		sym := d.Occurrences[oi].Symbol
		if strings.HasPrefix(sym, "local ") {
			local = true
			continue
		}
		t, defined := im.node(sym)
		switch {
		case !defined:
			external = true
			continue
		case t < 0:
			unmapped = true
			continue
		}
		if g.Nodes[t].Kind == graph.Class {
			if typ == graph.Call && g.Nodes[t].Lang == "go" {
				continue // T(x) converts
			}
			if typ == graph.Call {
				t = constructor(g, t)
			}
		}
		targets = append(targets, t)
	}
	// ccd's edges at the site; where the index names a class without a
	// constructor of its own, ccd's edges to the constructor it inherits.
	ctorSite := false
	for _, t := range targets {
		ctorSite = ctorSite || g.Nodes[t].Kind == graph.Class
	}
	var have []int // edge indexes
	for _, ei := range g.Out(caller) {
		e := g.Edge(ei)
		if e.Type == typ && slices.Contains(e.Lines, line) && (calledAs(g, e.To, name) || ctorSite && isCtor(g.Nodes[e.To])) {
			have = append(have, ei)
		}
	}
	switch {
	case len(targets) > 0:
		confirmed := false
		for _, t := range targets {
			same := false
			for _, ei := range have {
				same = same || g.Edge(ei).To == t
			}
			if !same && g.Nodes[t].Kind == graph.Class && len(have) > 0 {
				// A class without its own constructor: ccd binds the call
				// to the one it inherits, which the index confirms.
				confirmed = true
				for _, ei := range have {
					if e := g.Edge(ei); isCtor(g.Nodes[e.To]) {
						im.edges[siteKey{caller, e.To, line}] = typ
					}
				}
				continue
			}
			confirmed = confirmed || same
			im.edges[siteKey{caller, t, line}] = typ
		}
		if confirmed {
			im.stats.Confirmed++
		} else if len(have) == 0 {
			im.stats.Added++
		}
		redirected := false
		for _, ei := range have {
			e := g.Edge(ei)
			if slices.Contains(targets, e.To) || !im.contradicts(e, targets) {
				continue
			}
			im.stale[siteKey{caller, e.To, line}] = e.Confidence
			redirected = true
		}
		if redirected {
			im.stats.Redirected++
		}
	case external:
		im.stats.External++
		for _, ei := range have {
			if e := g.Edge(ei); e.Confidence <= graph.Inferred {
				im.stale[siteKey{caller, e.To, line}] = e.Confidence
			}
		}
	case local:
		im.stats.Local++
	case unmapped:
		im.stats.Unmapped++
	}
}

// contradicts reports whether the index's targets at a site show ccd's
// edge e there wrong: always for a weak edge; for a resolved one unless
// the index names an interface method e's target implements, or a class.
func (im *importer) contradicts(e graph.Edge, targets []int) bool {
	if e.Confidence <= graph.Inferred {
		return true
	}
	if e.Confidence > graph.Resolved {
		return false
	}
	impl := im.g.Implements(e.To)
	for _, t := range targets {
		if im.g.Nodes[t].Kind == graph.Class || slices.Contains(impl, t) {
			return false
		}
	}
	return true
}

// isDefinitionName reports whether the text before a name makes it the
// name of a definition ("def", "class", "function", "func").
func isDefinitionName(before []byte) bool {
	t := strings.TrimSpace(string(before))
	for _, kw := range []string{"def", "class", "function", "func", "function*"} {
		if t == kw || strings.HasSuffix(t, " "+kw) {
			return true
		}
	}
	return false
}

// importLine reports whether a line imports names (a reference there
// names what is imported, it calls nothing): a line of one of the
// module's import edges, or a line that reads as an import statement.
func (im *importer) importLine(caller, line int, text []byte) bool {
	if im.g.Nodes[caller].Kind == graph.Module {
		for _, ei := range im.g.Out(caller) {
			if e := im.g.Edge(ei); e.Type == graph.Import && slices.Contains(e.Lines, line) {
				return true
			}
		}
	}
	t := strings.TrimSpace(string(text))
	for _, p := range []string{"import ", "from ", "export {", "} from ", "require("} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// has reports whether ccd has an edge from caller to t of type typ.
func (im *importer) has(caller, t, line int, typ graph.EdgeType) bool {
	for _, ei := range im.g.Out(caller) {
		if e := im.g.Edge(ei); e.To == t && e.Type == typ && slices.Contains(e.Lines, line) {
			return true
		}
	}
	_, ok := im.edges[siteKey{caller, t, line}]
	return ok
}

// enclosing returns the innermost function around a line, else the file's
// module node.
func (im *importer) enclosing(rel string, line int) int {
	best, module := -1, -1
	for _, i := range im.g.InFile(rel) {
		n := im.g.Nodes[i]
		if n.Kind == graph.Module {
			module = i
			continue
		}
		if n.Kind != graph.Func || n.StartLine > line || line > n.EndLine {
			continue
		}
		if best < 0 || n.EndLine-n.StartLine < im.g.Nodes[best].EndLine-im.g.Nodes[best].StartLine {
			best = i
		}
	}
	if best < 0 {
		return module
	}
	return best
}

// result turns the recorded edges into a refinement.
func (im *importer) result() *lsp.Refinement {
	g := im.g
	ref := &lsp.Refinement{}
	keys := make([]siteKey, 0, len(im.edges))
	for k := range im.edges {
		keys = append(keys, k)
	}
	sortSites(keys)
	for _, k := range keys {
		ref.Edges = append(ref.Edges, graph.EdgeSpec{From: g.Nodes[k.from].ID, To: g.Nodes[k.to].ID,
			Type: im.edges[k], Confidence: graph.Precise, Line: k.line})
	}
	skeys := make([]siteKey, 0, len(im.stale))
	for k := range im.stale {
		if _, ok := im.edges[k]; !ok {
			skeys = append(skeys, k)
		}
	}
	sortSites(skeys)
	for _, k := range skeys {
		ref.Stale = append(ref.Stale, graph.EdgeSpec{From: g.Nodes[k.from].ID, To: g.Nodes[k.to].ID,
			Type: graph.Call, Confidence: im.stale[k], Line: k.line})
	}
	ref.Stats.Stale = len(ref.Stale)
	return ref
}

func sortSites(ks []siteKey) {
	slices.SortFunc(ks, func(a, b siteKey) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to), cmp.Compare(a.line, b.line))
	})
}

// constructor returns class c's constructor when it defines one, else c.
func constructor(g *graph.Graph, c int) int {
	cls := g.Nodes[c]
	for _, k := range g.Children(c) {
		n := g.Nodes[k]
		if n.Kind == graph.Func && (n.Name == "__init__" || n.Name == "constructor" || n.Name == "initialize" || n.Name == cls.Name) {
			return k
		}
	}
	return c
}

// calledAs reports whether a call written as name can reach node i: its
// own name, or the name of the class it constructs.
func calledAs(g *graph.Graph, i int, name string) bool {
	for _, n := range calledNames(g, i) {
		if n == name {
			return true
		}
	}
	return false
}

// calledNames lists the names a call of node i is written with: its own,
// and for a constructor its class's.
func calledNames(g *graph.Graph, i int) []string {
	n := g.Nodes[i]
	names := []string{n.Name}
	p := g.Parent(i)
	if n.Owner != "" {
		if j, ok := g.Index(n.Owner); ok {
			p = j
		}
	}
	if p >= 0 && isCtor(n) && g.Nodes[p].Kind == graph.Class {
		names = append(names, g.Nodes[p].Name)
	}
	return names
}

// isCtor reports whether a node is a constructor by its name.
func isCtor(n *graph.Node) bool {
	return n.Kind == graph.Func && (n.Name == "__init__" || n.Name == "__new__" || n.Name == "constructor" || n.Name == "initialize" || n.Name == "new")
}

// ReadFile reads a SCIP index file.
func ReadFile(file string) (*Index, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read scip index: %w", err)
	}
	idx, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return idx, nil
}
