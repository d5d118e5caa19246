package search

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/search/tokcount"
)

// ExpandedContent is one expanded handle.
type ExpandedContent struct {
	HandleID   string `json:"handle_id"`
	FilePath   string `json:"file_path"`
	NodeType   string `json:"node_type"`
	LineRange  [2]int `json:"line_range"`
	TokenCount int    `json:"token_count"`
	Content    string `json:"content"`
	// Changed is set when the content differs from what it was when the
	// handle was handed out (in this session, or when the file changed on
	// disk since it was indexed): the handle was re-resolved by its
	// qualified name and this is the current version.
	Changed bool   `json:"changed,omitempty"`
	Note    string `json:"note,omitempty"`
}

// FailedHandle is a handle that could not be expanded.
type FailedHandle struct {
	HandleID string `json:"handle_id"`
	// Code is CodeHandleNotFound (unknown or malformed id), CodeStaleIndex
	// (the definition is gone: renamed, moved or deleted; Fresh may offer
	// its successor) or CodeNoReader / "ReadError".
	Code   string `json:"code"`
	Reason string `json:"reason"`
	// Fresh is the handle that most likely replaced a stale one.
	Fresh *Handle `json:"fresh,omitempty"`
}

// ExpandResult is the expand tool's answer.
type ExpandResult struct {
	Contents          []ExpandedContent `json:"contents"`
	ExpandedHandleIDs []string          `json:"expanded_handle_ids"`
	Failed            []FailedHandle    `json:"failed,omitempty"`
	TotalTokens       int               `json:"total_tokens"`
}

// MaxExpand bounds how many handles one call expands.
const MaxExpand = 100

// Text renders the result as plain text: a header line ("// <id>
// path:from-to node_type, N tokens", and why the content changed when it
// did) then the content, one block per handle; failures follow as
// comments.
func (r *ExpandResult) Text() string {
	var b strings.Builder
	for i, c := range r.Contents {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "// %s %s:%d-%d %s, %d tokens", c.HandleID, c.FilePath, c.LineRange[0], c.LineRange[1], c.NodeType, c.TokenCount)
		if c.Note != "" {
			fmt.Fprintf(&b, " (%s)", c.Note)
		} else if c.Changed {
			b.WriteString(" (changed since it was handed out)")
		}
		fmt.Fprintf(&b, "\n%s", c.Content)
		if !strings.HasSuffix(c.Content, "\n") {
			b.WriteString("\n")
		}
	}
	for _, f := range r.Failed {
		fmt.Fprintf(&b, "\n// %s: %s: %s", f.HandleID, f.Code, f.Reason)
		if f.Fresh != nil {
			fmt.Fprintf(&b, " (fresh handle %s, %s %s lines %d-%d)", f.Fresh.ID, f.Fresh.NodeType, f.Fresh.FilePath,
				f.Fresh.LineRange[0], f.Fresh.LineRange[1])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Expand returns the current content of handles, read fresh through
// content (nil: Options.Read). A handle whose file changed on disk since it
// was indexed is re-resolved: the file is indexed again (with
// Options.Parse for code) and the same id, derived from the qualified name,
// is looked up; if it is gone the failure is StaleIndex with the likely
// successor. Expanded handles are recorded in s.
func (ix *Index) Expand(ids []string, s *Session, content func(path string) ([]byte, error)) *ExpandResult {
	if content == nil {
		content = ix.opts.Read
	}
	res := &ExpandResult{Contents: []ExpandedContent{}, ExpandedHandleIDs: []string{}}
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if seen[id] {
			continue
		}
		seen[id] = true
		if len(res.Contents)+len(res.Failed) >= MaxExpand {
			res.Failed = append(res.Failed, FailedHandle{HandleID: id, Code: CodeHandleNotFound,
				Reason: fmt.Sprintf("at most %d handles per call; expand the rest in another call", MaxExpand)})
			continue
		}
		c, f := ix.expandOne(id, s, content)
		if f != nil {
			res.Failed = append(res.Failed, *f)
			continue
		}
		res.Contents = append(res.Contents, *c)
		res.ExpandedHandleIDs = append(res.ExpandedHandleIDs, id)
		res.TotalTokens += c.TokenCount
	}
	s.MarkExpanded(res.ExpandedHandleIDs...)
	return res
}

// snapshot is what expand needs of a doc, copied under the read lock.
type snapshot struct {
	path     string
	lang     string
	fileHash uint64
	hash     uint64
	d        doc
}

func (ix *Index) lookup(id string) (snapshot, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n, ok := ix.byID[id]
	if !ok {
		return snapshot{}, false
	}
	d := ix.docs[n]
	return snapshot{path: d.file.path, lang: d.file.lang, fileHash: d.file.hash, hash: d.hash, d: d}, true
}

func (ix *Index) expandOne(id string, s *Session, content func(string) ([]byte, error)) (*ExpandedContent, *FailedHandle) {
	if !ValidID(id) {
		return nil, &FailedHandle{HandleID: id, Code: CodeHandleNotFound, Reason: "not a handle id (\"h\" and 24 hex digits); copy ids from query or evidence_pack results"}
	}
	snap, ok := ix.lookup(id)
	if !ok {
		return nil, ix.missing(id)
	}
	if content == nil {
		return nil, &FailedHandle{HandleID: id, Code: CodeNoReader, Reason: "the index cannot read files (no workspace root configured)"}
	}
	b, err := content(snap.path)
	if errors.Is(err, fs.ErrNotExist) {
		ix.Remove(snap.path)
		return nil, ix.missing(id)
	}
	if err != nil {
		return nil, &FailedHandle{HandleID: id, Code: "ReadError", Reason: fmt.Sprintf("read %s: %v", snap.path, err)}
	}
	b = normalize(b)
	changed := false
	note := ""
	if hashBytes(b) != snap.fileHash {
		// The file changed on disk and the index has not caught up yet:
		// index it now and resolve the id again.
		if !ix.reindex(snap.path, snap.lang, b) {
			return nil, &FailedHandle{HandleID: id, Code: CodeStaleIndex,
				Reason: fmt.Sprintf("%s changed since it was indexed and its definitions cannot be re-read here; invalidate it, then query again", snap.path)}
		}
		if snap, ok = ix.lookup(id); !ok {
			return nil, ix.missing(id)
		}
		changed, note = true, "the file changed since the handle was issued; re-resolved by qualified name"
	}
	d := &snap.d
	if d.end > len(b) {
		return nil, &FailedHandle{HandleID: id, Code: CodeStaleIndex, Reason: fmt.Sprintf("%s is shorter than the indexed handle; invalidate it, then query again", snap.path)}
	}
	if h, ok := s.issuedHash(id); ok && h != snap.hash && !changed {
		changed, note = true, "the content changed since the handle was issued; this is the current version"
	}
	tok := int(d.tokens)
	if tok < 0 {
		tok = tokcount.Count(b[d.start:d.end])
	}
	return &ExpandedContent{HandleID: id, FilePath: snap.path, NodeType: d.typ.String(), LineRange: [2]int{d.lineA, d.lineB},
		TokenCount: tok, Content: string(b[d.start:d.end]), Changed: changed, Note: note}, nil
}

// reindex indexes a changed file from content, when its handles can be
// rebuilt: Markdown and plain text always, code with Options.Parse.
func (ix *Index) reindex(p, lang string, b []byte) bool {
	var defs []facts.Def
	if lang != "" && !isMarkdown(p, lang) {
		if ix.opts.Parse == nil {
			return false
		}
		l, ds, err := ix.opts.Parse(p, b)
		if err != nil {
			return false
		}
		lang, defs = l, ds
	}
	return ix.Update(p, b, lang, defs) == nil
}

// missing explains an id that is not in the index: stale (a tombstone
// remembers it) with its likely successor, or unknown.
func (ix *Index) missing(id string) *FailedHandle {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	t, ok := ix.tombs.get(id)
	if !ok {
		return &FailedHandle{HandleID: id, Code: CodeHandleNotFound, Reason: "unknown handle id; query again for fresh handles"}
	}
	f := &FailedHandle{HandleID: id, Code: CodeStaleIndex}
	fe := ix.files[t.path]
	if fe == nil {
		f.Reason = fmt.Sprintf("%s was removed from the index (deleted or no longer readable)", t.path)
		return f
	}
	f.Reason = fmt.Sprintf("%s %q in %s was renamed, moved or deleted", t.typ, t.key, t.path)
	// The successor: same name and group, else the nearest handle of the
	// same type.
	best, bestD := -1, 1<<30
	for _, n := range fe.docs {
		d := &ix.docs[n]
		if d.typ.idGroup() != t.typ.idGroup() {
			continue
		}
		dist := abs(d.lineA - t.lineA)
		if d.name != t.name || t.name == "" {
			dist += 1 << 20
		}
		if dist < bestD {
			best, bestD = int(n), dist
		}
	}
	if best >= 0 {
		h := ix.handle(uint32(best), ix.newFileCache())
		f.Fresh = &h
	}
	return f
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
