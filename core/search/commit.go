package search

import (
	"strings"
	"time"
)

// termEntry is one term of the dictionary with its postings.
type termEntry struct {
	text string
	post []posting
}

// posting is one doc's term frequencies for a term.
type posting struct {
	doc uint32
	tf  uint32 // packed, see packTF
}

// commit replaces the file pf describes with pf's handles and postings.
// The caller holds the write lock.
func (ix *Index) commit(pf *prepared) {
	var keep map[string]bool
	if old := ix.files[pf.path]; old != nil {
		keep = make(map[string]bool, len(pf.docs))
		for i := range pf.docs {
			keep[pf.docs[i].id] = true
		}
		ix.removeFile(old, keep)
	}
	f := &fileEntry{path: pf.path, lang: pf.lang, hash: pf.hash, size: pf.size, lines: pf.lines, indexed: time.Now(), defsSig: pf.defsSig,
		pathStems: pathStems(pf.path)}
	f.num = ix.allocFileNum(f)
	f.docs = make([]uint32, len(pf.docs))
	for i := range pf.docs {
		d := pf.docs[i]
		d.file, d.fnum = f, f.num
		n := ix.allocDoc()
		ix.docs[n] = d
		f.docs[i] = n
		ix.byID[d.id] = n
		ix.tombs.forget(d.id)
		if d.typ == ntFile {
			continue
		}
		ix.nDocs++
		for k := range d.lens {
			ix.fieldLen[k] += int64(d.lens[k])
			if k != fDoc { // its words are the body's too
				f.length += d.lens[k]
			}
		}
		if d.typ.isDef() || d.typ == ntSection {
			k := strings.ToLower(d.name)
			ix.byName[k] = append(ix.byName[k], n)
		}
		if d.parent != "" {
			k := strings.ToLower(d.parent)
			ix.byParent[k] = append(ix.byParent[k], n)
		}
	}
	f.terms = make([]uint32, len(pf.vocab))
	for i, text := range pf.vocab {
		t, ok := ix.dict[text]
		if !ok {
			t = ix.allocTerm(text)
		}
		f.terms[i] = t
		te := &ix.terms[t]
		for _, lp := range pf.post[i] {
			te.post = append(te.post, posting{doc: f.docs[lp.doc], tf: lp.tf})
		}
	}
	ix.files[pf.path] = f
	ix.fileLenTotal += int64(f.length)
	for _, st := range f.pathStems {
		ix.byPathStem[st] = append(ix.byPathStem[st], f)
	}
	ix.touch()
}

// removeFile drops a file's docs and postings. Handles whose ids are not in
// keep (all, when keep is nil) are remembered as tombstones for expand.
// The caller holds the write lock.
func (ix *Index) removeFile(f *fileEntry, keep map[string]bool) {
	for _, t := range f.terms {
		te := &ix.terms[t]
		out := te.post[:0]
		for _, p := range te.post {
			if ix.docs[p.doc].file != f {
				out = append(out, p)
			}
		}
		clear(te.post[len(out):])
		te.post = out
		if len(out) == 0 {
			ix.freeTermSlot(t)
		} else if cap(out) > 64 && len(out) < cap(out)/4 {
			te.post = append([]posting(nil), out...)
		}
	}
	for _, n := range f.docs {
		d := &ix.docs[n]
		if !keep[d.id] {
			ix.tombs.add(tombstone{id: d.id, path: f.path, typ: d.typ, name: d.name, key: d.key, lineA: d.lineA})
		}
		delete(ix.byID, d.id)
		if d.typ != ntFile {
			ix.nDocs--
			for k := range d.lens {
				ix.fieldLen[k] -= int64(d.lens[k])
			}
			if d.typ.isDef() || d.typ == ntSection {
				dropFrom(ix.byName, strings.ToLower(d.name), n)
			}
			if d.parent != "" {
				dropFrom(ix.byParent, strings.ToLower(d.parent), n)
			}
		}
		*d = doc{}
		ix.freeDocs = append(ix.freeDocs, n)
	}
	delete(ix.files, f.path)
	ix.fileLenTotal -= int64(f.length)
	ix.fileSlots[f.num] = nil
	ix.freeFileNums = append(ix.freeFileNums, f.num)
	for _, st := range f.pathStems {
		fs := ix.byPathStem[st]
		for i, g := range fs {
			if g == f {
				fs = append(fs[:i], fs[i+1:]...)
				break
			}
		}
		if len(fs) == 0 {
			delete(ix.byPathStem, st)
		} else {
			ix.byPathStem[st] = fs
		}
	}
}

func dropFrom(m map[string][]uint32, k string, n uint32) {
	s := m[k]
	for i, x := range s {
		if x == n {
			s = append(s[:i], s[i+1:]...)
			break
		}
	}
	if len(s) == 0 {
		delete(m, k)
	} else {
		m[k] = s
	}
}

func (ix *Index) allocDoc() uint32 {
	if n := len(ix.freeDocs); n > 0 {
		d := ix.freeDocs[n-1]
		ix.freeDocs = ix.freeDocs[:n-1]
		return d
	}
	ix.docs = append(ix.docs, doc{})
	return uint32(len(ix.docs) - 1)
}

// allocFileNum gives f a slot in fileSlots.
func (ix *Index) allocFileNum(f *fileEntry) uint32 {
	if n := len(ix.freeFileNums); n > 0 {
		num := ix.freeFileNums[n-1]
		ix.freeFileNums = ix.freeFileNums[:n-1]
		ix.fileSlots[num] = f
		return num
	}
	ix.fileSlots = append(ix.fileSlots, f)
	return uint32(len(ix.fileSlots) - 1)
}

func (ix *Index) allocTerm(text string) uint32 {
	var t uint32
	if n := len(ix.freeTerm); n > 0 {
		t = ix.freeTerm[n-1]
		ix.freeTerm = ix.freeTerm[:n-1]
		ix.terms[t] = termEntry{text: text}
	} else {
		ix.terms = append(ix.terms, termEntry{text: text})
		t = uint32(len(ix.terms) - 1)
	}
	ix.dict[text] = t
	st := stem(text)
	ix.byStem[st] = append(ix.byStem[st], t)
	return t
}

// stem is the bucket of a term for prefix lookups.
func stem(t string) string { return t[:min(len(t), 2)] }

func (ix *Index) freeTermSlot(t uint32) {
	delete(ix.dict, ix.terms[t].text)
	dropFrom(ix.byStem, stem(ix.terms[t].text), t)
	ix.terms[t] = termEntry{}
	ix.freeTerm = append(ix.freeTerm, t)
}
