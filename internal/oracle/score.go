package oracle

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Graph is the part of `ccd export`'s JSON the harness reads.
type Graph struct {
	Nodes []Node  `json:"nodes"`
	Edges []GEdge `json:"edges"`
}

// Node is one node of the export.
type Node struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	Qual      string `json:"qual"`
	Path      string `json:"path"`
	Lang      string `json:"lang"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// GEdge is one edge of the export.
type GEdge struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Type       string `json:"type"`
	Confidence string `json:"confidence"`
	Lines      []int  `json:"lines"`
}

// Oracle is what every oracle (gocg, pyoracle.py, jsoracle.js) prints.
type Oracle struct {
	Tool  string   `json:"tool"`
	Root  string   `json:"root"`
	Files []string `json:"files"`
	Edges []OEdge  `json:"edges"`
	// Unresolved lists the call sites the oracle saw but could not
	// resolve at all (not those it resolved outside the package).
	Unresolved []OSite        `json:"unresolved,omitempty"`
	Counts     map[string]int `json:"counts"`
	Errors     []string       `json:"errors,omitempty"`
}

// OEdge is one call site and one callee as an oracle sees them. Lines are
// 1-based; Alt lists other lines the same call may be reported on (the
// line the call expression starts on, the line of the callee's name).
type OEdge struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Alt        []int  `json:"alt,omitempty"`
	CalleeFile string `json:"callee_file"`
	CalleeLine int    `json:"callee_line"`
	CalleeName string `json:"callee_name"`
	Kind       string `json:"kind"`
}

// OSite is a call site an oracle could not resolve: where, and the name
// the call goes through.
type OSite struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Alt  []int  `json:"alt,omitempty"`
	Name string `json:"name"`
}

// ReadGraph decodes a `ccd export` file.
func ReadGraph(path string) (*Graph, error) {
	var g Graph
	if err := readJSON(path, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// ReadOracle decodes an oracle's output file.
func ReadOracle(path string) (*Oracle, error) {
	var o Oracle
	if err := readJSON(path, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

func readJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Options says how to score one package.
type Options struct {
	// Extra lists oracle edge kinds that are not part of the reference:
	// they confirm a ccd edge (precision) but their absence from ccd is
	// not a miss (recall). Go's VTA edges ("dynamic") are extra: ccd by
	// design points a call through an interface at the interface method.
	Extra []string
	// SatisfiedBy maps a reference kind to an extra kind that can stand
	// in for it: a reference site of that kind that ccd misses counts as
	// found when ccd has an edge the extra kind confirms at the same call
	// (Go: a call through an interface that ccd binds to an implementation
	// VTA finds there, rather than to the interface method).
	SatisfiedBy map[string]string
	// Implicit lists callee names the language runs without a call
	// expression (Python's `with x:` runs x.__enter__): the oracle, which
	// sees call expressions only, reports none of them, so ccd's sites of
	// those names on a line without a call of that name are left out
	// (Ignored) rather than counted as unconfirmed. Needs Source.
	Implicit []string
	// Samples is how many missed and spurious sites the result lists in
	// its sample (default 20; the full lists are always kept).
	Samples int
	// Source returns the text of one line of a file of the package, for
	// the samples; nil leaves Text empty.
	Source func(file string, line int) string
}

// Counts are the three numbers precision and recall come from.
type Counts struct {
	CCD     int `json:"ccd"`     // ccd's items
	Oracle  int `json:"oracle"`  // the oracle's reference items
	Matched int `json:"matched"` // oracle items ccd found (recall's numerator)
	// Confirmed is ccd items the oracle confirms (precision's numerator):
	// Matched plus those confirmed only by an extra kind.
	Confirmed int `json:"confirmed"`
}

// Add accumulates c2 into c.
func (c *Counts) Add(c2 Counts) {
	c.CCD += c2.CCD
	c.Oracle += c2.Oracle
	c.Matched += c2.Matched
	c.Confirmed += c2.Confirmed
}

// Precision is Confirmed/CCD (1 when ccd reports nothing).
func (c Counts) Precision() float64 {
	if c.CCD == 0 {
		return 1
	}
	return float64(c.Confirmed) / float64(c.CCD)
}

// Recall is Matched/Oracle (1 when the oracle reports nothing).
func (c Counts) Recall() float64 {
	if c.Oracle == 0 {
		return 1
	}
	return float64(c.Matched) / float64(c.Oracle)
}

// F1 is the harmonic mean of precision and recall.
func (c Counts) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Site is one call site and one callee, normalised: call-site file and
// line, callee definition file and start line (ccd's start line; an
// oracle's definition line is snapped to the ccd node that holds it).
type Site struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Alt        []int  `json:"alt,omitempty"`
	CalleeFile string `json:"callee_file"`
	CalleeLine int    `json:"callee_line"`
	// Callee is ccd's node id for the callee, or file:line name when ccd
	// has no node there.
	Callee string `json:"callee"`
	// Caller is ccd's `from` for ccd's sites, and for an oracle's the
	// innermost ccd node (function or class) whose lines hold the site,
	// else the module.
	Caller     string `json:"caller"`
	Confidence string `json:"confidence,omitempty"` // ccd's sites
	Kind       string `json:"kind,omitempty"`       // oracle's sites
	// NoNode: ccd has no function or class node at the oracle's callee.
	NoNode bool `json:"no_node,omitempty"`
	// Unverified: a ccd site the oracle contradicts nowhere: it saw a
	// call through the same name on that line and could not resolve it,
	// or (Dispatch) an inferred edge to an override of the method the
	// oracle binds that call to, which it does not follow to subclasses.
	Unverified bool `json:"unverified,omitempty"`
	Dispatch   bool `json:"dispatch,omitempty"`
	// Other: the other side has a site on the same line with a different
	// callee (a wrong target rather than a missing or extra edge).
	Other string `json:"other,omitempty"`
	Text  string `json:"text,omitempty"`
}

func (s Site) key() string { return siteKey(s.File, s.Line, s.CalleeFile, s.CalleeLine) }

func siteKey(file string, line int, cfile string, cline int) string {
	return file + ":" + strconv.Itoa(line) + ">" + cfile + ":" + strconv.Itoa(cline)
}

func lineKey(file string, line int) string { return file + ":" + strconv.Itoa(line) }

// Result is one package's score.
type Result struct {
	Package string `json:"package"`
	Lang    string `json:"lang"`
	Version string `json:"version,omitempty"`
	Source  string `json:"source,omitempty"`
	Sub     string `json:"sub,omitempty"`
	Note    string `json:"note,omitempty"`
	Tool    string `json:"tool"`
	Files   int    `json:"files"`
	// Sites: call-site level, (site file, site line, callee).
	Sites Counts `json:"sites"`
	// Pairs: function-pair level, (caller, callee).
	Pairs Counts `json:"pairs"`
	// ByConfidence: ccd's sites per confidence (CCD and Confirmed).
	ByConfidence map[string]*Counts `json:"by_confidence"`
	// ByKind: the oracle's sites per kind (Oracle and Matched); extra
	// kinds included.
	ByKind map[string]*Counts `json:"by_kind"`
	// NoNode counts reference sites whose callee ccd has no node for.
	NoNode int `json:"no_node"`
	// MissedWrong and SpuriousWrong count the missed and spurious sites
	// where the other side has a different callee on the same line.
	MissedWrong   int `json:"missed_wrong_target"`
	SpuriousWrong int `json:"spurious_wrong_target"`
	// Unverified counts the spurious sites the oracle could not resolve
	// (a call through the same name on that line): unconfirmed rather
	// than contradicted.
	Unverified int `json:"unverified"`
	// Dispatch counts the unverified sites that are overrides reached by
	// dispatch (see Site.Dispatch).
	Dispatch int `json:"dispatch"`
	// Ignored counts ccd call edges left out: their call site or callee
	// is in a file the oracle did not analyse (build-tag variants,
	// examples outside the module's packages), or the callee is a module.
	Ignored int `json:"ignored_ccd_sites"`
	// OracleIgnored counts oracle edges left out (a file outside ccd's
	// view).
	OracleIgnored int `json:"ignored_oracle_sites"`
	// OracleCounts are the oracle's own counters (sites seen, resolved
	// outside the package, unresolved...); OracleErrors how many errors
	// it reported.
	OracleCounts map[string]int `json:"oracle_counts,omitempty"`
	OracleErrors int            `json:"oracle_errors,omitempty"`
	// Millis: wall time of ccd export and of the oracle.
	CCDMillis    int64 `json:"ccd_millis"`
	OracleMillis int64 `json:"oracle_millis"`

	// Defs: the package's definitions against universal-ctags (nil
	// when ctags is not installed).
	Defs *DefResult `json:"defs,omitempty"`

	Missed         []Site `json:"missed"`
	Spurious       []Site `json:"spurious"`
	MissedSample   []Site `json:"-"`
	SpuriousSample []Site `json:"-"`
}

// fileIndex holds one file's ccd definition nodes, for snapping and for
// finding the node that encloses a line.
type fileIndex struct {
	defs []Node // func and class nodes
}

func (fi *fileIndex) innermost(line int, label string) (Node, bool) {
	var best Node
	found := false
	for _, n := range fi.defs {
		if n.StartLine > line || n.EndLine < line {
			continue
		}
		if label != "" && n.Label != label {
			continue
		}
		if !found || n.EndLine-n.StartLine < best.EndLine-best.StartLine ||
			(n.EndLine-n.StartLine == best.EndLine-best.StartLine && n.StartLine > best.StartLine) {
			best, found = n, true
		}
	}
	return best, found
}

func (fi *fileIndex) startingAt(line int, label string) (Node, bool) {
	var hit Node
	found := false
	for _, n := range fi.defs {
		if n.StartLine != line {
			continue
		}
		if n.Label == label {
			return n, true
		}
		if !found {
			hit, found = n, true
		}
	}
	return hit, found
}

// snap maps an oracle's callee definition (file, line, name) to ccd's node
// for that definition: the node that starts on that line, else the
// innermost node with that name whose lines hold it (ccd may start a
// definition at its decorator, annotation or doc comment). Constructors
// match by their method name on both sides.
func snap(idx map[string]*fileIndex, file string, line int, name string) (Node, bool) {
	fi := idx[file]
	if fi == nil {
		return Node{}, false
	}
	if n, ok := fi.startingAt(line, name); ok {
		return n, true
	}
	if name != "" {
		if n, ok := fi.innermost(line, name); ok {
			return n, true
		}
	}
	return Node{}, false
}

// OptionsFor returns the scoring options the harness uses for a language.
func OptionsFor(lang string) Options {
	switch lang {
	case "go":
		return Options{Extra: []string{"dynamic"}, SatisfiedBy: map[string]string{"interface": "dynamic"}}
	case "javascript":
		// An anonymous function handed outside the package is called
		// there: ccd's convention, which the oracle checks (the callee
		// is outside) but cannot observe.
		return Options{Extra: []string{"callback"}}
	}
	if lang == "python" {
		return Options{Implicit: []string{"__enter__", "__exit__", "__iter__", "__next__"}}
	}
	return Options{}
}

// Score compares ccd's call edges with an oracle's on one package.
func Score(g *Graph, o *Oracle, opt Options) *Result {
	if opt.Samples == 0 {
		opt.Samples = 20
	}
	implicit := map[string]bool{}
	for _, k := range opt.Implicit {
		implicit[k] = true
	}
	extra := map[string]bool{}
	for _, k := range opt.Extra {
		extra[k] = true
	}
	files := map[string]bool{}
	for _, f := range o.Files {
		files[f] = true
	}
	r := &Result{Tool: o.Tool, Files: len(o.Files), ByConfidence: map[string]*Counts{}, ByKind: map[string]*Counts{},
		Missed: []Site{}, Spurious: []Site{}}

	nodes := map[string]Node{}
	idx := map[string]*fileIndex{}
	for _, n := range g.Nodes {
		nodes[n.ID] = n
		if n.Kind != "func" && n.Kind != "class" {
			continue
		}
		fi := idx[n.Path]
		if fi == nil {
			fi = &fileIndex{}
			idx[n.Path] = fi
		}
		fi.defs = append(fi.defs, n)
	}
	callerOf := func(file string, line int) string {
		if fi := idx[file]; fi != nil {
			if n, ok := fi.innermost(line, ""); ok {
				return n.ID
			}
		}
		return file
	}

	// ccd's sites.
	var ccd []*Site
	ccdByKey := map[string]*Site{}
	ccdByLine := map[string][]*Site{}
	for _, e := range g.Edges {
		if e.Type != "call" {
			continue
		}
		from, ok1 := nodes[e.From]
		to, ok2 := nodes[e.To]
		if !ok1 || !ok2 || !files[from.Path] || !files[to.Path] || (to.Kind != "func" && to.Kind != "class") {
			r.Ignored += len(e.Lines)
			continue
		}
		for _, l := range e.Lines {
			if implicit[to.Label] && opt.Source != nil && !strings.Contains(opt.Source(from.Path, l), to.Label+"(") {
				r.Ignored++
				continue
			}
			s := &Site{File: from.Path, Line: l, CalleeFile: to.Path, CalleeLine: to.StartLine,
				Callee: to.ID, Caller: from.ID, Confidence: e.Confidence}
			k := s.key()
			if prev, ok := ccdByKey[k]; ok {
				if confRank(s.Confidence) < confRank(prev.Confidence) {
					prev.Confidence = s.Confidence
				}
				continue
			}
			ccdByKey[k] = s
			ccd = append(ccd, s)
			lk := lineKey(s.File, s.Line)
			ccdByLine[lk] = append(ccdByLine[lk], s)
		}
	}

	// The oracle's sites, callees snapped to ccd's nodes, one per key;
	// a reference kind wins over an extra one at the same key.
	var ref, ext []*Site
	refByKey := map[string]*Site{}
	extByKey := map[string]*Site{}
	for _, e := range o.Edges {
		if !files[e.File] || !files[e.CalleeFile] {
			r.OracleIgnored++
			continue
		}
		s := &Site{File: e.File, Line: e.Line, Alt: e.Alt, CalleeFile: e.CalleeFile, Kind: e.Kind}
		if n, ok := snap(idx, e.CalleeFile, e.CalleeLine, e.CalleeName); ok {
			s.CalleeLine, s.Callee = n.StartLine, n.ID
		} else {
			s.CalleeLine, s.NoNode = e.CalleeLine, true
			s.Callee = fmt.Sprintf("%s:%d %s", e.CalleeFile, e.CalleeLine, e.CalleeName)
		}
		s.Caller = callerOf(s.File, s.Line)
		k := s.key()
		if extra[e.Kind] {
			if _, ok := refByKey[k]; ok {
				continue
			}
			if prev, ok := extByKey[k]; ok {
				prev.Alt = mergeLines(prev.Alt, s.Alt)
				continue
			}
			extByKey[k] = s
			ext = append(ext, s)
			continue
		}
		if prev, ok := refByKey[k]; ok {
			prev.Alt = mergeLines(prev.Alt, s.Alt)
			continue
		}
		refByKey[k] = s
		ref = append(ref, s)
	}
	// An extra site that is also a reference site is the reference site.
	kept := ext[:0]
	for _, s := range ext {
		if _, ok := refByKey[s.key()]; !ok {
			kept = append(kept, s)
		}
	}
	ext = kept
	sortSites(ccd)
	sortSites(ref)
	sortSites(ext)

	// Match reference sites to ccd's: the primary line first, then the
	// alternative lines, each ccd site used once.
	matched := map[*Site]*Site{} // ccd site -> oracle site
	refHit := map[*Site]bool{}
	try := func(s *Site, line int) bool {
		c, ok := ccdByKey[siteKey(s.File, line, s.CalleeFile, s.CalleeLine)]
		if !ok || matched[c] != nil {
			return false
		}
		matched[c] = s
		refHit[s] = true
		return true
	}
	for _, s := range ref {
		try(s, s.Line)
	}
	for _, s := range ref {
		if refHit[s] {
			continue
		}
		for _, l := range s.Alt {
			if try(s, l) {
				break
			}
		}
	}
	// Extra sites confirm ccd sites not matched yet.
	extHit := map[*Site]bool{}
	confirmed := map[*Site]bool{}
	for c := range matched {
		confirmed[c] = true
	}
	for _, s := range ext {
		for _, l := range append([]int{s.Line}, s.Alt...) {
			c, ok := ccdByKey[siteKey(s.File, l, s.CalleeFile, s.CalleeLine)]
			if ok && !confirmed[c] {
				confirmed[c] = true
				extHit[s] = true
				break
			}
			if ok {
				extHit[s] = true
			}
		}
	}

	// Reference sites an extra kind stands in for.
	extHitAt := map[string]bool{}
	for _, s := range ext {
		if extHit[s] {
			extHitAt[s.Kind+" "+lineKey(s.File, s.Line)] = true
		}
	}
	stoodIn := map[string]bool{} // pairs
	for _, s := range ref {
		if refHit[s] {
			continue
		}
		if k, ok := opt.SatisfiedBy[s.Kind]; ok && extHitAt[k+" "+lineKey(s.File, s.Line)] {
			refHit[s] = true
			stoodIn[s.Caller+" > "+s.Callee] = true
		}
	}

	r.Sites = Counts{CCD: len(ccd), Oracle: len(ref), Matched: len(refHit), Confirmed: len(confirmed)}
	for _, c := range ccd {
		bc := r.ByConfidence[c.Confidence]
		if bc == nil {
			bc = &Counts{}
			r.ByConfidence[c.Confidence] = bc
		}
		bc.CCD++
		if confirmed[c] {
			bc.Confirmed++
		}
	}
	for _, list := range [][]*Site{ref, ext} {
		for _, s := range list {
			bk := r.ByKind[s.Kind]
			if bk == nil {
				bk = &Counts{}
				r.ByKind[s.Kind] = bk
			}
			bk.Oracle++
			if refHit[s] || extHit[s] {
				bk.Matched++
			}
		}
	}

	// Pairs: (caller, callee). A ccd pair is confirmed when the oracle
	// has it as a reference or an extra pair.
	ccdPairs := map[string]bool{}
	for _, c := range ccd {
		ccdPairs[c.Caller+" > "+c.Callee] = true
	}
	refPairs := map[string]bool{}
	for _, s := range ref {
		refPairs[s.Caller+" > "+s.Callee] = true
	}
	extPairs := map[string]bool{}
	for _, s := range ext {
		extPairs[s.Caller+" > "+s.Callee] = true
	}
	r.Pairs = Counts{CCD: len(ccdPairs), Oracle: len(refPairs)}
	for p := range refPairs {
		if ccdPairs[p] || stoodIn[p] {
			r.Pairs.Matched++
		}
	}
	for p := range ccdPairs {
		if refPairs[p] || extPairs[p] {
			r.Pairs.Confirmed++
		}
	}

	// The lists: missed reference sites and unconfirmed ccd sites, each
	// with what the other side says on that line.
	refByLine := map[string][]*Site{}
	for _, s := range ref {
		for _, l := range append([]int{s.Line}, s.Alt...) {
			lk := lineKey(s.File, l)
			refByLine[lk] = append(refByLine[lk], s)
		}
	}
	text := func(s *Site) {
		if opt.Source != nil {
			s.Text = opt.Source(s.File, s.Line)
		}
	}
	for _, s := range ref {
		if s.NoNode {
			r.NoNode++
		}
		if refHit[s] {
			continue
		}
		m := *s
		for _, l := range append([]int{s.Line}, s.Alt...) {
			for _, c := range ccdByLine[lineKey(s.File, l)] {
				if matched[c] == nil && c.Callee != s.Callee {
					m.Other = c.Callee
					break
				}
			}
			if m.Other != "" {
				break
			}
		}
		if m.Other != "" {
			r.MissedWrong++
		}
		text(&m)
		r.Missed = append(r.Missed, m)
	}
	unresolved := map[string]bool{}
	for _, u := range o.Unresolved {
		for _, l := range append([]int{u.Line}, u.Alt...) {
			unresolved[lineKey(u.File, l)+" "+u.Name] = true
		}
	}
	for _, c := range ccd {
		if confirmed[c] {
			continue
		}
		m := *c
		for _, name := range calleeNames(nodes[c.Callee]) {
			if unresolved[lineKey(c.File, c.Line)+" "+name] {
				m.Unverified = true
				r.Unverified++
				break
			}
		}
		for _, s := range refByLine[lineKey(c.File, c.Line)] {
			if !refHit[s] && s.Callee != c.Callee {
				m.Other = s.Callee
				break
			}
		}
		if !m.Unverified && c.Confidence == "inferred" {
			// An override reached by dispatch: the oracle bound the
			// call to a method of the same name (a base's), which it
			// does not follow to subclasses.
			to := nodes[c.Callee]
			for _, s := range refByLine[lineKey(c.File, c.Line)] {
				if n, ok := nodes[s.Callee]; ok && s.Callee != c.Callee && n.Label == to.Label && strings.Contains(to.Qual, ".") {
					m.Unverified, m.Dispatch = true, true
					r.Unverified++
					r.Dispatch++
					break
				}
			}
		}
		if m.Other != "" {
			r.SpuriousWrong++
		}
		text(&m)
		r.Spurious = append(r.Spurious, m)
	}
	r.MissedSample = sample(r.Missed, opt.Samples)
	r.SpuriousSample = sample(r.Spurious, opt.Samples)
	return r
}

// VerifiablePrecision is precision over the ccd sites the oracle could
// check: the sites it could not resolve at all are left out.
func (r *Result) VerifiablePrecision() float64 {
	c := r.Sites
	c.CCD -= r.Unverified
	return c.Precision()
}

// calleeNames are the names a call to n may be written with: its label,
// and for a constructor its class's name.
func calleeNames(n Node) []string {
	names := []string{n.Label}
	if n.Label == "__init__" || n.Label == "constructor" {
		q := strings.TrimSuffix(n.Qual, "."+n.Label)
		if i := strings.LastIndex(q, "."); i >= 0 {
			q = q[i+1:]
		}
		names = append(names, q)
	}
	return names
}

// confRank orders confidences from the strongest.
func confRank(c string) int {
	switch c {
	case "resolved":
		return 0
	case "lsp":
		return 1
	case "inferred":
		return 2
	case "name-match":
		return 3
	}
	return 4
}

func mergeLines(a, b []int) []int {
	for _, l := range b {
		dup := false
		for _, x := range a {
			if x == l {
				dup = true
				break
			}
		}
		if !dup {
			a = append(a, l)
		}
	}
	return a
}

func sortSites(s []*Site) {
	sort.SliceStable(s, func(i, j int) bool { return siteLess(s[i], s[j]) })
}

func siteLess(a, b *Site) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.CalleeFile != b.CalleeFile {
		return a.CalleeFile < b.CalleeFile
	}
	if a.CalleeLine != b.CalleeLine {
		return a.CalleeLine < b.CalleeLine
	}
	return a.Kind < b.Kind
}

// sample picks at most n sites spread evenly over the (sorted) list, so
// the sample covers the whole package rather than its first file.
func sample(s []Site, n int) []Site {
	if len(s) <= n {
		return s
	}
	out := make([]Site, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, s[i*len(s)/n])
	}
	return out
}

// SourceReader returns an Options.Source that reads files under root
// (each file once) and returns the trimmed line, shortened to 100 bytes.
func SourceReader(root string) func(file string, line int) string {
	cache := map[string][]string{}
	return func(file string, line int) string {
		lines, ok := cache[file]
		if !ok {
			b, err := os.ReadFile(root + "/" + file)
			if err == nil {
				lines = strings.Split(string(b), "\n")
			}
			cache[file] = lines
		}
		if line < 1 || line > len(lines) {
			return ""
		}
		t := strings.TrimSpace(lines[line-1])
		if len(t) > 100 {
			cut := 97
			for cut > 0 && !utf8Start(t[cut]) {
				cut--
			}
			t = t[:cut] + "..."
		}
		return t
	}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
