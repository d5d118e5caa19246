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
	nFields
)

// A posting's term frequencies are packed into one uint32: name in the top
// byte, signature in the next, body in the low 16 bits (all saturating).
func packTF(name, sig, body uint32) uint32 {
	return min(name, 0xff)<<24 | min(sig, 0xff)<<16 | min(body, 0xffff)
}

func unpackTF(tf uint32) (name, sig, body uint32) {
	return tf >> 24, tf >> 16 & 0xff, tf & 0xffff
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
		if pc.own == nil {
			d.lens[fBody] = b.add(n, span, fBody)
		} else {
			for _, s := range pc.own {
				d.lens[fBody] += b.add(n, content[s.Start:s.End], fBody)
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
		name, sig, body := unpackTF(last.tf)
		switch f {
		case fName:
			name++
		case fSig:
			sig++
		default:
			body++
		}
		last.tf = packTF(name, sig, body)
	})
	return count
}
