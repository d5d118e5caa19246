package search

import (
	"path"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// hits is the result of evaluating one query expression: matching docs
// with scores, and reference sites.
type hits struct {
	score map[uint32]float64
	refs  []RefHandle
	// total counts matches before any limit cut them (0: len(score)).
	total int
	// note explains something about the result (partial word matches).
	note string
	// cover is the fraction of a text query's words a doc contains, for
	// partial matches only (absent: all of them). A query of several
	// words fills fileCover instead: the fraction its file holds.
	cover     map[uint32]float64
	fileCover map[*fileEntry]float64
}

func newHits() *hits { return &hits{score: map[uint32]float64{}} }

func (h *hits) count() int { return max(h.total, len(h.score)) }

// Scores of structural matches (symbol, section, file and children lookups).
// They are on the scale of text scores: an exact name match is worth about
// as much as a name hit of a rare word.
const (
	scoreExact     = 20.0 // name or qualified name equal, same case
	scoreFold      = 16.0 // equal ignoring case
	scorePart      = 8.0  // the query is one of the name's identifier parts
	scoreSubstring = 5.0  // the name contains the query
	scoreMember    = 10.0 // a member of the requested parent
	testPenalty    = 0.8  // factor for definitions in test files
)

// splitSymbol separates an optional "path::" prefix and normalises "::" to
// "." in the qualified name.
func splitSymbol(sym string) (file, qual string) {
	sym = strings.TrimSuffix(strings.TrimSpace(sym), "()")
	if i := strings.LastIndex(sym, "::"); i >= 0 && strings.ContainsAny(sym[:i], "/.") && !strings.Contains(sym[i+2:], "::") {
		if p := sym[:i]; strings.Contains(p, "/") || path.Ext(p) != "" {
			return p, sym[i+2:]
		}
	}
	return "", strings.ReplaceAll(sym, "::", ".")
}

// baseKey strips a duplicate marker ("#2") from a qualified key.
func baseKey(k string) string {
	if i := strings.LastIndexByte(k, '#'); i > 0 {
		return k[:i]
	}
	return k
}

// qualMatch scores how well a doc's qualified key matches qual: exact,
// case-folded, or as a dotted suffix ("Serve" or "Server.Serve" both match
// "Server.Serve"). 0 means no match.
func qualMatch(d *doc, qual string) float64 {
	k := baseKey(d.key)
	if !strings.Contains(qual, ".") {
		switch {
		case d.name == qual:
			return scoreExact
		case strings.EqualFold(d.name, qual):
			return scoreFold
		}
		return 0
	}
	switch {
	case k == qual || strings.HasSuffix(k, "."+qual):
		return scoreExact
	case strings.EqualFold(k, qual) || len(k) > len(qual) && strings.EqualFold(k[len(k)-len(qual)-1:], "."+qual):
		return scoreFold
	}
	return 0
}

// lastSegment is the name part of a qualified name.
func lastSegment(qual string) string {
	if i := strings.LastIndexByte(qual, '.'); i >= 0 {
		return qual[i+1:]
	}
	return qual
}

func (d *doc) inTest() bool { return graph.IsTestFile(d.file.path) }

// definitions finds the definitions of a symbol (exact name or qualified
// name, case-insensitively as a fallback). The caller holds the read lock.
func (ix *Index) definitions(sym string) *hits {
	h := newHits()
	file, qual := splitSymbol(sym)
	if qual == "" {
		return h
	}
	for _, n := range ix.byName[strings.ToLower(lastSegment(qual))] {
		d := &ix.docs[n]
		if !d.typ.isDef() || file != "" && d.file.path != file {
			continue
		}
		if s := qualMatch(d, qual); s > 0 {
			if d.inTest() {
				s *= testPenalty
			}
			h.score[n] = s
		}
	}
	return h
}

// symbols is the AST symbol search of (code "x") and symbol=: exact
// definitions first, then definitions whose name has the query as an
// identifier part ("Serve" in ServeHTTP), then names containing it.
func (ix *Index) symbols(sym string) *hits {
	h := ix.definitions(sym)
	_, qual := splitSymbol(sym)
	name := strings.ToLower(lastSegment(qual))
	if len(name) < 2 {
		return h
	}
	add := func(n uint32, s float64) {
		d := &ix.docs[n]
		if !d.typ.isDef() {
			return
		}
		if strings.Contains(qual, ".") {
			// A qualified query also needs the parent to match.
			parent := qual[:strings.LastIndexByte(qual, '.')]
			if !strings.EqualFold(lastSegment(parent), d.parent) {
				return
			}
		}
		// Shorter names are closer matches.
		s *= 0.5 + 0.5*float64(len(name))/float64(max(len(d.name), len(name)))
		if d.inTest() {
			s *= testPenalty
		}
		if s > h.score[n] {
			h.score[n] = s
		}
	}
	if t, ok := ix.dict[name]; ok {
		for _, p := range ix.terms[t].post {
			if nameTF, _, _, _ := unpackTF(p.tf); nameTF > 0 {
				add(p.doc, scorePart)
			}
		}
	}
	for k, ns := range ix.byName {
		if len(k) > len(name) && strings.Contains(k, name) {
			for _, n := range ns {
				add(n, scoreSubstring)
			}
		}
	}
	return h
}

// sections finds Markdown sections by heading: equal headings first, then
// headings (and heading paths) containing the words.
func (ix *Index) sections(heading string) *hits {
	heading = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(heading), "#"))
	isSection := func(d *doc) bool { return d.typ == ntSection }
	h, _ := ix.textHits(heading, nameFields, isSection)
	for _, n := range ix.byName[strings.ToLower(heading)] {
		d := &ix.docs[n]
		if d.typ != ntSection {
			continue
		}
		s := scoreFold
		if d.name == heading {
			s = scoreExact
		}
		h.score[n] += s
	}
	return h
}

// fileHits returns the whole-file handles of files matching p: the exact
// path, a path ending in /p, a glob, or the base name.
func (ix *Index) fileHits(p string) (*hits, error) {
	h := newHits()
	p = strings.TrimPrefix(strings.TrimSpace(p), "./")
	var g *globMatcher
	if strings.ContainsAny(p, "*?[{") {
		var err error
		if g, err = compileGlob(p); err != nil {
			return nil, err
		}
	}
	for fp, f := range ix.files {
		s := 0.0
		switch {
		case fp == p:
			s = scoreExact
		case strings.HasSuffix(fp, "/"+p):
			s = scoreFold
		case g != nil && g.match(fp):
			s = scorePart
		case path.Base(fp) == p:
			s = scoreSubstring
		}
		if s > 0 {
			h.score[f.docs[0]] = s
		}
	}
	return h, nil
}

// children returns the members of a parent: methods and nested
// definitions of a class (including Go methods by receiver), subsections,
// paragraphs and code blocks of a Markdown section.
func (ix *Index) children(parent string) *hits {
	h := newHits()
	_, qual := splitSymbol(parent)
	name := lastSegment(qual)
	for _, n := range ix.byParent[strings.ToLower(name)] {
		d := &ix.docs[n]
		pq := baseKey(d.pqual)
		switch {
		case strings.Contains(qual, "."):
			if !(pq == qual || strings.HasSuffix(pq, "."+qual) || strings.EqualFold(pq, qual)) {
				continue
			}
		case !strings.EqualFold(d.parent, name):
			continue
		}
		s := scoreMember
		if d.parent != name {
			s *= 0.9
		}
		if d.inTest() {
			s *= testPenalty
		}
		h.score[n] = s
	}
	return h
}

// childrenNamed returns the members of parent named child: exact names
// first, then names containing it.
func (ix *Index) childrenNamed(parent, child string) *hits {
	kids := ix.children(parent)
	h := newHits()
	lc := strings.ToLower(child)
	for n, s := range kids.score {
		d := &ix.docs[n]
		switch {
		case d.name == child:
			h.score[n] = s + scoreExact
		case strings.EqualFold(d.name, child):
			h.score[n] = s + scoreFold
		case len(lc) >= 2 && strings.Contains(strings.ToLower(d.name), lc):
			h.score[n] = s + scoreSubstring
		}
	}
	return h
}
