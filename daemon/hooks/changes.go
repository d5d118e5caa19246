package hooks

import (
	"strings"
)

// lineChanges are the lines an edit added or removed: added in the new
// file's numbering, deleted in the old file's. A symbol's body changed
// only when one of them falls inside it: context lines never count.
type lineChanges struct {
	added, deleted map[int]bool
	known          bool // false: nothing said which lines changed
}

func (lc *lineChanges) add(line int) {
	if lc.added == nil {
		lc.added = map[int]bool{}
	}
	lc.added[line] = true
}

func (lc *lineChanges) del(line int) {
	if lc.deleted == nil {
		lc.deleted = map[int]bool{}
	}
	lc.deleted[line] = true
}

// inNew reports whether an added line falls in [start, end] of the new
// file; inOld whether a deleted line falls in [start, end] of the old.
func (lc lineChanges) inNew(start, end int) bool { return anyIn(lc.added, start, end) }
func (lc lineChanges) inOld(start, end int) bool { return anyIn(lc.deleted, start, end) }

func anyIn(set map[int]bool, start, end int) bool {
	if len(set) <= end-start+1 {
		for l := range set {
			if l >= start && l <= end {
				return true
			}
		}
		return false
	}
	for l := start; l <= end; l++ {
		if set[l] {
			return true
		}
	}
	return false
}

// changedLines works out which lines an edit event changed: from the
// response's structuredPatch (only its + and - lines), else from the
// response's originalFile against the file as it is now (current), else
// from the tool input's old_string/new_string pairs located in current.
func (e *Event) changedLines(current []byte) lineChanges {
	if lc, ok := e.patchLines(); ok {
		return lc
	}
	if r, ok := e.Response.(map[string]any); ok {
		if orig, ok := get(r, "originalFile", "original_file").(string); ok && current != nil {
			return diffLines(splitLines(orig), splitLines(string(current)))
		}
	}
	if current == nil {
		return lineChanges{}
	}
	var pairs [][2]string
	if s, ok := get(e.Input, "new_string", "newString").(string); ok {
		old, _ := get(e.Input, "old_string", "oldString").(string)
		pairs = append(pairs, [2]string{old, s})
	}
	if edits, ok := e.Input["edits"].([]any); ok {
		for _, x := range edits {
			if m, ok := x.(map[string]any); ok {
				old, _ := get(m, "old_string", "oldString").(string)
				s, _ := get(m, "new_string", "newString").(string)
				pairs = append(pairs, [2]string{old, s})
			}
		}
	}
	var lc lineChanges
	cur := string(current)
	for _, p := range pairs {
		if !stringEdit(&lc, cur, p[0], p[1]) {
			return lineChanges{} // not found as written: say nothing rather than guess
		}
	}
	return lc
}

// patchLines reads the structuredPatch hunks: "+" lines are added (new
// numbering), "-" lines deleted (old numbering), " " lines are context.
func (e *Event) patchLines() (lineChanges, bool) {
	r, ok := e.Response.(map[string]any)
	if !ok {
		return lineChanges{}, false
	}
	hs, ok := get(r, "structuredPatch", "structured_patch").([]any)
	if !ok {
		return lineChanges{}, false
	}
	lc := lineChanges{known: true}
	for _, h := range hs {
		m, ok := h.(map[string]any)
		if !ok {
			continue
		}
		oldLine, newLine := num(m, "oldStart"), num(m, "newStart")
		lines, _ := m["lines"].([]any)
		if lines == nil {
			// A hunk without its lines: all of its new range counts.
			for i := 0; i < num(m, "newLines"); i++ {
				lc.add(newLine + i)
			}
			for i := 0; i < num(m, "oldLines"); i++ {
				lc.del(oldLine + i)
			}
			continue
		}
		for _, x := range lines {
			s, _ := x.(string)
			switch {
			case strings.HasPrefix(s, "+"):
				lc.add(newLine)
				newLine++
			case strings.HasPrefix(s, "-"):
				lc.del(oldLine)
				oldLine++
			case strings.HasPrefix(s, `\`): // "\ No newline at end of file"
			default:
				oldLine++
				newLine++
			}
		}
	}
	return lc, true
}

// stringEdit records the lines of one old→new string replacement, at
// every place new sits in cur (replace_all makes several). The text
// before a replacement is the same in both files, so the old lines are
// numbered from the same start; the lines both strings share at their
// ends did not change.
func stringEdit(lc *lineChanges, cur, old, new string) bool {
	if new == "" {
		return old == "" // a deletion cannot be located in the new file
	}
	oldL, newL := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(oldL) && pre < len(newL) && oldL[pre] == newL[pre] {
		pre++
	}
	suf := 0
	for suf < len(oldL)-pre && suf < len(newL)-pre && oldL[len(oldL)-1-suf] == newL[len(newL)-1-suf] {
		suf++
	}
	found := false
	shift := 0 // lines earlier replacements added (old numbering lags)
	for at := 0; ; {
		i := strings.Index(cur[at:], new)
		if i < 0 {
			break
		}
		found = true
		start := 1 + strings.Count(cur[:at+i], "\n")
		for l := pre; l < len(newL)-suf; l++ {
			lc.add(start + l)
		}
		for l := pre; l < len(oldL)-suf; l++ {
			lc.del(start - shift + l)
		}
		shift += len(newL) - len(oldL)
		at += i + len(new)
	}
	lc.known = lc.known || found
	return found
}

// splitLines splits text into lines without their terminators.
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// diffLines compares two versions of a file line by line: lines only in
// the new one are added, lines only in the old one deleted. The common
// head and tail are trimmed, and the middle is matched by a longest
// common subsequence when it is small enough; a larger middle counts as
// changed whole (rare for one edit).
func diffLines(a, b []string) lineChanges {
	lc := lineChanges{known: true}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > 4_000_000 {
		for i := range ma {
			lc.del(pre + i + 1)
		}
		for j := range mb {
			lc.add(pre + j + 1)
		}
		return lc
	}
	// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:].
	n, m := len(ma), len(mb)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ma[i] == mb[j]:
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			lc.add(pre + j + 1)
			j++
		default:
			lc.del(pre + i + 1)
			i++
		}
	}
	return lc
}
