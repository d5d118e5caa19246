package search

import (
	"hash/maphash"
	"path"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/search/terms"
	"github.com/ccd-dev/ccd/core/search/tokcount"
)

// Fields of a handle, from the heaviest to the lightest in ranking.
const (
	fName = iota // the symbol's or heading's name
	fSig         // qualified name and signature, heading path
	fBody        // the content
	// fDoc is the documentation within the content: a definition's doc
	// comment or docstring, a file's package comment or module docstring.
	// Its words count in the body too; this field weighs them again, as
	// the words that say what the code is for.
	fDoc
	nFields
)

// A posting's term frequencies are packed into one uint32, all
// saturating: name in the top 6 bits, signature in the next 6, doc in the
// next 8, body in the low 12 (BM25 saturates long before 4,095).
func packTF(name, sig, body, doc uint32) uint32 {
	return min(name, 0x3f)<<26 | min(sig, 0x3f)<<20 | min(doc, 0xff)<<12 | min(body, 0xfff)
}

func unpackTF(tf uint32) (name, sig, body, doc uint32) {
	return tf >> 26, tf >> 20 & 0x3f, tf & 0xfff, tf >> 12 & 0xff
}

// prepared is a file's handles and postings, built without any lock and
// then committed to the index in one short critical section.
type prepared struct {
	path  string
	lang  string
	hash  uint64
	size  int
	lines int
	docs  []doc     // docs[0] is the file handle
	vocab []string  // the file's distinct terms
	post  [][]lpost // postings per vocab entry
	// defsSig identifies the definitions the handles came from (see
	// defsSignature); a re-index with the same content and signature is a
	// no-op.
	defsSig uint64
}

// lpost is a posting with a doc number local to the prepared file.
type lpost struct {
	doc uint32
	tf  uint32
}

// hashSeed keys content hashes. Hashes never leave the process, so a
// per-process seed is fine; maphash runs at memory speed, which matters
// because queries hash the files they answer from (see fileCache).
var hashSeed = maphash.MakeSeed()

func hashBytes(b []byte) uint64 { return maphash.Bytes(hashSeed, b) }

// extract picks the handle extraction for a file.
func extract(p string, content []byte, lang string, defs []facts.Def, li *lineIndex) []piece {
	switch {
	case isMarkdown(p, lang):
		return extractMarkdown(content, li)
	case len(defs) > 0 || lang != "":
		return extractCode(content, lang, defs, li)
	}
	return extractText(content, li)
}

// prepare extracts a file's handles and their terms. Token counts are left
// at -1 (unknown) unless eager is set.
func prepare(p string, content []byte, lang string, defs []facts.Def, eager bool) *prepared {
	count := func(b []byte) int32 {
		if !eager {
			return -1
		}
		return int32(tokcount.Count(b))
	}
	li := newLineIndex(content)
	pieces := extract(p, content, lang, defs, li)
	pf := &prepared{path: p, lang: lang, hash: hashBytes(content), size: len(content), lines: li.lines()}
	pf.docs = make([]doc, 0, len(pieces)+1)
	pf.docs = append(pf.docs, doc{
		id: handleID(p, ntFile.idGroup(), "", 0), typ: ntFile, name: path.Base(p),
		start: 0, end: len(content), lineA: min(1, pf.lines), lineB: pf.lines,
		preview: preview(content), hash: pf.hash, tokens: count(content),
	})
	b := builder{local: map[string]uint32{}, pf: pf}
	docs := docSpans(content, lang, defs, li)
	ordinals := map[string]int{}
	for _, pc := range pieces {
		k := pc.typ.idGroup() + "\x00" + pc.key
		ord := ordinals[k]
		ordinals[k] = ord + 1
		span := content[pc.start:pc.end]
		d := doc{
			id: handleID(p, pc.typ.idGroup(), pc.key, ord), typ: pc.typ,
			name: pc.name, key: pc.key, parent: pc.parent, pqual: pc.pqual, sig: pc.sig,
			start: pc.start, end: pc.end, lineA: pc.lineA, lineB: pc.lineB,
			preview: preview(content[pc.previewAt:pc.end]), hash: hashBytes(span),
			tokens: count(span),
		}
		n := uint32(len(pf.docs))
		d.lens[fName] = b.add(n, []byte(pc.name), fName)
		d.lens[fSig] = b.add(n, []byte(pc.sig), fSig)
		own := pc.own
		if own == nil {
			own = []Span{{pc.start, pc.end}}
		}
		for _, s := range own {
			d.lens[fBody] += b.add(n, content[s.Start:s.End], fBody)
			for _, x := range intersect(s, docs) {
				d.lens[fDoc] += b.add(n, content[x.Start:x.End], fDoc)
			}
		}
		pf.docs = append(pf.docs, d)
	}
	return pf
}

// builder accumulates a file's postings.
type builder struct {
	pf    *prepared
	local map[string]uint32
	// For each local term, the doc of its last posting: a term seen again
	// in the same doc increments that posting instead of adding one.
	lastDoc []uint32
}

// add indexes text as field f of doc n and returns the number of terms.
func (b *builder) add(n uint32, text []byte, f int) uint32 {
	var count uint32
	terms.Each(text, func(t []byte, _ bool) {
		count++
		id, ok := b.local[string(t)]
		if !ok {
			id = uint32(len(b.pf.vocab))
			s := string(t)
			b.local[s] = id
			b.pf.vocab = append(b.pf.vocab, s)
			b.pf.post = append(b.pf.post, nil)
			b.lastDoc = append(b.lastDoc, ^uint32(0))
		}
		ps := b.pf.post[id]
		if b.lastDoc[id] != n {
			b.lastDoc[id] = n
			ps = append(ps, lpost{doc: n})
			b.pf.post[id] = ps
		}
		last := &ps[len(ps)-1]
		name, sig, body, doc := unpackTF(last.tf)
		switch f {
		case fName:
			name++
		case fSig:
			sig++
		case fDoc:
			doc++
		default:
			body++
		}
		last.tf = packTF(name, sig, body, doc)
	})
	return count
}
