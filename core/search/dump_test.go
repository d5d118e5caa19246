package search

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// dump renders the whole index canonically: every handle with all its
// fields, every term with its postings by handle id, the field totals and
// the name and parent maps. Two indexes of the same files dump the same
// text, whatever order they were built in. It also checks the internal
// invariants (no orphan postings, consistent maps) and fails t on any
// violation.
func dump(t testing.TB, ix *Index) string {
	t.Helper()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var b strings.Builder
	var handles []string
	live := 0
	nDocs := 0
	var lens [nFields]int64
	for n := range ix.docs {
		d := &ix.docs[n]
		if d.file == nil {
			continue
		}
		live++
		if ix.files[d.file.path] != d.file {
			t.Errorf("doc %s belongs to a file entry that is not in the index", d.id)
		}
		if m, ok := ix.byID[d.id]; !ok || m != uint32(n) {
			t.Errorf("byID[%s] = %d, %v; want %d", d.id, m, ok, n)
		}
		if d.typ != ntFile {
			nDocs++
			for f := range lens {
				lens[f] += int64(d.lens[f])
			}
		}
		// Token counts are left out: they are computed lazily, when a
		// handle is first shown (TestLazyTokenCounts checks them).
		handles = append(handles, fmt.Sprintf("%s %s %s %q %q %q %q %q %d-%d %d:%d lens=%v hash=%x %q",
			d.id, d.file.path, d.typ, d.name, d.key, d.parent, d.pqual, d.sig, d.start, d.end, d.lineA, d.lineB,
			d.lens, d.hash, d.preview))
	}
	if live != len(ix.byID) {
		t.Errorf("%d live docs but %d ids", live, len(ix.byID))
	}
	if live+len(ix.freeDocs) != len(ix.docs) {
		t.Errorf("%d live + %d free docs != %d slots", live, len(ix.freeDocs), len(ix.docs))
	}
	if nDocs != ix.nDocs || lens != ix.fieldLen {
		t.Errorf("counters drifted: nDocs %d (recount %d), fieldLen %v (recount %v)", ix.nDocs, nDocs, ix.fieldLen, lens)
	}
	sort.Strings(handles)
	b.WriteString("handles\n")
	for _, h := range handles {
		b.WriteString(h + "\n")
	}
	var termLines []string
	liveTerms := 0
	for tn := range ix.terms {
		te := &ix.terms[tn]
		if te.text == "" {
			if len(te.post) > 0 {
				t.Errorf("free term slot %d has postings", tn)
			}
			continue
		}
		liveTerms++
		if len(te.post) == 0 {
			t.Errorf("term %q has no postings (orphan term)", te.text)
		}
		if m, ok := ix.dict[te.text]; !ok || m != uint32(tn) {
			t.Errorf("dict[%q] = %d, %v; want %d", te.text, m, ok, tn)
		}
		var ps []string
		for _, p := range te.post {
			d := &ix.docs[p.doc]
			if d.file == nil {
				t.Errorf("term %q has a posting for a freed doc (orphan posting)", te.text)
				continue
			}
			ps = append(ps, fmt.Sprintf("%s:%x", d.id, p.tf))
		}
		sort.Strings(ps)
		termLines = append(termLines, te.text+" "+strings.Join(ps, " "))
	}
	if liveTerms != len(ix.dict) {
		t.Errorf("%d live terms but %d dictionary entries", liveTerms, len(ix.dict))
	}
	sort.Strings(termLines)
	b.WriteString("terms\n")
	for _, l := range termLines {
		b.WriteString(l + "\n")
	}
	for _, m := range []struct {
		name string
		m    map[string][]uint32
	}{{"byName", ix.byName}, {"byParent", ix.byParent}} {
		var ls []string
		for k, ns := range m.m {
			var ids []string
			for _, n := range ns {
				if ix.docs[n].file == nil {
					t.Errorf("%s[%q] holds a freed doc", m.name, k)
					continue
				}
				ids = append(ids, ix.docs[n].id)
			}
			if len(ids) == 0 {
				t.Errorf("%s[%q] is empty", m.name, k)
			}
			sort.Strings(ids)
			ls = append(ls, k+" "+strings.Join(ids, " "))
		}
		sort.Strings(ls)
		b.WriteString(m.name + "\n" + strings.Join(ls, "\n") + "\n")
	}
	// File numbers and lengths (file-level ranking) agree with the files.
	var lenTotal int64
	liveFiles := 0
	for num, f := range ix.fileSlots {
		if f == nil {
			continue
		}
		liveFiles++
		if ix.files[f.path] != f || f.num != uint32(num) {
			t.Errorf("fileSlots[%d] holds %s (num %d), not an indexed file", num, f.path, f.num)
		}
		var length uint32
		for _, n := range f.docs {
			d := &ix.docs[n]
			if d.fnum != f.num {
				t.Errorf("doc %s of %s has file number %d, want %d", d.id, f.path, d.fnum, f.num)
			}
			if d.typ != ntFile {
				length += d.lens[fName] + d.lens[fSig] + d.lens[fBody]
			}
		}
		if length != f.length {
			t.Errorf("%s: length %d, its handles hold %d terms", f.path, f.length, length)
		}
		lenTotal += int64(f.length)
	}
	if liveFiles != len(ix.files) || liveFiles+len(ix.freeFileNums) != len(ix.fileSlots) || lenTotal != ix.fileLenTotal {
		t.Errorf("%d files in slots, %d indexed, %d free of %d; length total %d, recount %d",
			liveFiles, len(ix.files), len(ix.freeFileNums), len(ix.fileSlots), ix.fileLenTotal, lenTotal)
	}
	var files []string
	for p, f := range ix.files {
		files = append(files, fmt.Sprintf("%s %s %x %d %d docs=%d terms=%d", p, f.lang, f.hash, f.size, f.lines, len(f.docs), len(f.terms)))
	}
	sort.Strings(files)
	b.WriteString("files\n" + strings.Join(files, "\n") + "\n")
	return b.String()
}
