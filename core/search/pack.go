package search

import (
	"fmt"
	"math"
	"strings"

	"github.com/ccd-dev/ccd/core/search/dsl"
	"github.com/ccd-dev/ccd/core/search/terms"
)

// PackRequest is the evidence_pack tool's input: the query parameters plus
// selection bounds.
type PackRequest struct {
	QueryParams
	// MaxHandles bounds the handles in the pack (default 8).
	MaxHandles int `json:"max_handles,omitempty"`
	// MaxPerFile bounds the handles from one file (default 2).
	MaxPerFile int `json:"max_per_file,omitempty"`
	// Plan is accepted for compatibility with Canopy's evidence_pack, where
	// it overrode server-side recursive planning, and ignored.
	Plan *bool `json:"plan,omitempty"`
}

// Pack defaults.
const (
	DefaultMaxHandles = 8
	DefaultMaxPerFile = 2
)

// PackHandle is a handle in an evidence pack: no preview, no content.
type PackHandle struct {
	ID         string `json:"id"`
	FilePath   string `json:"file_path"`
	NodeType   string `json:"node_type"`
	LineRange  [2]int `json:"line_range"`
	TokenCount int    `json:"token_count"`
	// Score is relative to the best handle of the query (1 = best).
	Score            float64 `json:"score"`
	Symbol           string  `json:"symbol,omitempty"`
	RecentlyExpanded bool    `json:"recently_expanded,omitempty"`
}

// PackFile groups a pack's handles by file.
type PackFile struct {
	FilePath   string   `json:"file_path"`
	HandleIDs  []string `json:"handle_ids"`
	BestScore  float64  `json:"best_score"`
	TokenCount int      `json:"token_count"`
}

// Guidance tells the agent what to do next (see guide for the rule).
type Guidance struct {
	StopQuerying         bool    `json:"stop_querying"`
	RecommendedAction    string  `json:"recommended_action"`
	SuggestedExpandCount int     `json:"suggested_expand_count"`
	MaxAdditionalQueries int     `json:"max_additional_queries"`
	Confidence           float64 `json:"confidence"`
	ConfidenceBand       string  `json:"confidence_band"`
	NextStep             string  `json:"next_step"`
}

// Recommended actions and confidence bands.
const (
	ActionRefine = "refine_query"
	ActionExpand = "expand_then_answer"
	BandHigh     = "high"
	BandMedium   = "medium"
	BandLow      = "low"
)

// Pack is the evidence_pack tool's answer.
type Pack struct {
	Handles          []PackHandle `json:"handles"`
	Files            []PackFile   `json:"files"`
	ExpandSuggestion []string     `json:"expand_suggestion"`
	Guidance         Guidance     `json:"guidance"`
	TotalMatches     int          `json:"total_matches"`
	Truncated        bool         `json:"truncated"`
	// TotalTokens is what expanding every handle of the pack would cost.
	TotalTokens  int    `json:"total_tokens"`
	PendingFiles int    `json:"pending_files,omitempty"`
	Note         string `json:"note,omitempty"`
	Generation   uint64 `json:"generation"`
	// StaleFiles lists result files that changed on disk since they were
	// indexed and could not be re-indexed here.
	StaleFiles []string `json:"stale_files,omitempty"`
}

// EvidencePack ranks the query's matches and selects at most MaxHandles of
// them, at most MaxPerFile per file, best first; suggests which to expand
// (handles the session expanded recently go last and are not suggested);
// and computes guidance from the score distribution.
func (ix *Index) EvidencePack(req PackRequest, s *Session, refs RefSource) (*Pack, error) {
	e, defsOnly, err := req.QueryParams.plan()
	if err != nil {
		return nil, err
	}
	maxH, maxF := req.MaxHandles, req.MaxPerFile
	if maxH <= 0 {
		maxH = DefaultMaxHandles
	}
	maxH = min(maxH, MaxLimit)
	if maxF <= 0 {
		maxF = DefaultMaxPerFile
	}
	pending, _ := ix.catchUp(ix.needsOf(e, refs))
	p, changed, err := ix.pack(e, defsOnly, maxH, maxF, s, refs, pending)
	if err != nil || len(changed) == 0 {
		return p, err
	}
	// As in Query: re-index result files that changed on disk, answer again.
	stale := ix.freshen(changed)
	if refreshed := len(changed) - len(stale); refreshed > 0 {
		if p, changed, err = ix.pack(e, defsOnly, maxH, maxF, s, refs, pending); err != nil {
			return nil, err
		}
		p.Note = joinNote(p.Note, fmt.Sprintf("re-indexed %d file(s) that changed since indexing", refreshed))
	}
	if len(changed) > 0 {
		p.StaleFiles = changed
		p.Note = joinNote(p.Note, fmt.Sprintf("%d result file(s) changed since indexing and could not be re-read here; call invalidate", len(changed)))
	}
	return p, nil
}

// pack builds a pack under the read lock and reports result files that
// changed on disk.
func (ix *Index) pack(e *dsl.Expr, defsOnly bool, maxH, maxF int, s *Session, refs RefSource, pending int) (*Pack, []string, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	h, err := ix.evalTop(e, defsOnly, refs)
	if err != nil {
		return nil, nil, err
	}
	p := &Pack{Handles: []PackHandle{}, Files: []PackFile{}, ExpandSuggestion: []string{},
		TotalMatches: max(h.count(), len(h.score)), Generation: ix.gen.Load(), PendingFiles: pending, Note: h.note}
	chosen := ix.selectPerFile(h, maxH, maxF)
	fc := ix.newFileCache()
	docs := make([]uint32, len(chosen))
	for i, r := range chosen {
		docs[i] = r.doc
	}
	changed := ix.changedFiles(docs, fc)
	fileAt := map[string]int{}
	top := 0.0
	if len(chosen) > 0 {
		top = chosen[0].score
	}
	for _, r := range chosen {
		d := &ix.docs[r.doc]
		ph := PackHandle{ID: d.id, FilePath: d.file.path, NodeType: d.typ.String(), LineRange: [2]int{d.lineA, d.lineB},
			TokenCount: ix.tokens(d, fc), Score: round3(r.score / top), RecentlyExpanded: s.RecentlyExpanded(d.id)}
		if d.typ.isDef() || d.typ == ntSection {
			ph.Symbol = d.key
		}
		s.issue(d.id, d.hash)
		p.Handles = append(p.Handles, ph)
		p.TotalTokens += ph.TokenCount
		i, ok := fileAt[d.file.path]
		if !ok {
			i = len(p.Files)
			fileAt[d.file.path] = i
			p.Files = append(p.Files, PackFile{FilePath: d.file.path, BestScore: ph.Score})
		}
		p.Files[i].HandleIDs = append(p.Files[i].HandleIDs, d.id)
		p.Files[i].TokenCount += ph.TokenCount
	}
	p.Truncated = p.TotalMatches > len(p.Handles)
	p.Guidance = ix.guide(e, top, h, p)
	// Suggest the best handles not expanded recently.
	for _, ph := range p.Handles {
		if len(p.ExpandSuggestion) == p.Guidance.SuggestedExpandCount {
			break
		}
		if !ph.RecentlyExpanded {
			p.ExpandSuggestion = append(p.ExpandSuggestion, ph.ID)
		}
	}
	if len(p.ExpandSuggestion) == 0 && len(p.Handles) > 0 && p.Guidance.RecommendedAction == ActionExpand {
		p.Guidance.NextStep = "The best handles were already expanded in this session: answer from them, or refine the query if they did not answer it."
	}
	if pending > 0 {
		p.Note = joinNote(p.Note, fmt.Sprintf("%d files are still being indexed; files containing the query's words were indexed first", pending))
	}
	return p, changed, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// selectPerFile picks the best maxH docs with at most maxF per file. It
// ranks a bounded number of candidates first and falls back to ranking
// everything only when the per-file cap starved the selection.
func (ix *Index) selectPerFile(h *hits, maxH, maxF int) []ranked {
	pick := func(all []ranked) []ranked {
		var out []ranked
		perFile := map[*fileEntry]int{}
		for _, r := range all {
			if len(out) == maxH {
				break
			}
			f := ix.docs[r.doc].file
			if perFile[f] < maxF {
				perFile[f]++
				out = append(out, r)
			}
		}
		return out
	}
	k := 32 * maxH
	out := pick(ix.rank(h, k))
	if len(out) < maxH && len(h.score) > k {
		out = pick(ix.rank(h, 0))
	}
	return out
}

// Confidence bands.
const (
	highConfidence   = 0.75
	mediumConfidence = 0.5
)

// guide computes the guidance of a pack from the score distribution.
//
// The rule, with s1 the best score:
//
//   - coverage: the share of the query the best handle's file holds (its
//     idf share and word share, see textHits; 1 for symbol, section,
//     file, children and reference lookups, and when it holds every word);
//   - focus: how few files answer. m counts the files with a match
//     scoring at least half of s1; focus is 1 for m = 1, 0.7 for m ≤ 3,
//     0.45 for m ≤ 8 and 0.25 beyond;
//   - lead: how far the best file is ahead of the next: with s' the best
//     score of another file, lead = min(1, (s1 - s')/(s1/4)) (1 when no
//     other file matches), so a near tie between two files is no answer.
//
// confidence = (0.2 + 0.8·coverage) × focus × (0.6 + 0.4·lead), times 0.7
// when the best handle is in a test file and the query does not ask about
// tests; in [0, 1]. (Measured on the natural-language questions of
// testdata/retrieval, the number of files that answer alike predicts
// whether the first is right far better than whether one handle holds
// every word or names a query word: one strong file was right 57 times of
// 58, more than eight 10 times of 31.)
// High (≥ 0.75): stop querying, expand the top min(m, 2) handles, no more
// queries. Medium (≥ 0.5): stop querying, expand up to min(m, 3), at most
// one more query. Low: refine the query (at most two more), expand at most
// the best one. No match at all is low with confidence 0.
func (ix *Index) guide(e *dsl.Expr, s1 float64, h *hits, p *Pack) Guidance {
	g := Guidance{}
	if len(p.Handles) == 0 {
		g.ConfidenceBand = BandLow
		g.RecommendedAction = ActionRefine
		g.MaxAdditionalQueries = 2
		g.NextStep = "Nothing matched. Retry once with fewer or different words, a symbol= lookup, or a wider glob; if that finds nothing, fall back to reading files."
		return g
	}
	// A question is answered by a file: m counts the files with a match
	// scoring at least half the best (handles of one file share their
	// file's part of the score, so they say little apart).
	strong := map[*fileEntry]bool{}
	for n, s := range h.score {
		if s >= s1/2 {
			strong[ix.docs[n].file] = true
		}
	}
	m := len(strong)
	focus := 0.25
	switch {
	case m <= 1:
		focus = 1
	case m <= 3:
		focus = 0.7
	case m <= 8:
		focus = 0.45
	}
	best, ok := ix.byID[p.Handles[0].ID]
	if !ok {
		return g
	}
	coverage, nameHit := ix.topSignals(e, best, h)
	lead := 1.0
	if s1 > 0 {
		// The pack's handles are best first with at most a few per file,
		// so the first of another file is the next file's best; scores
		// are relative to s1.
		for _, ph := range p.Handles[1:] {
			if ph.FilePath != p.Handles[0].FilePath {
				lead = min(1, max(0, (1-ph.Score)/0.25))
				break
			}
		}
	}
	conf := (0.2 + 0.8*coverage) * focus * (0.6 + 0.4*lead)
	inTests := isTestPath(ix.docs[best].file.path) && !asksAboutTests(e)
	if inTests {
		conf *= 0.7
	}
	g.Confidence = round3(conf)
	sel := len(p.Handles)
	var why []string
	if coverage < 1 {
		why = append(why, "no handle contains every word")
	}
	if nameHit == 0 {
		why = append(why, "the best match does not name the query")
	}
	if focus < 1 {
		why = append(why, fmt.Sprintf("%d files score about as high as the best", m))
	}
	if lead < 1 {
		why = append(why, "another file scores nearly as high")
	}
	if inTests {
		why = append(why, "the best match is in a test file")
	}
	label := p.Handles[0].FilePath
	if sym := p.Handles[0].Symbol; sym != "" {
		label = sym + " in " + label
	}
	switch {
	case g.Confidence >= highConfidence:
		g.ConfidenceBand = BandHigh
		g.StopQuerying = true
		g.RecommendedAction = ActionExpand
		g.SuggestedExpandCount = min(max(min(m, 2), 1), sel)
		g.NextStep = fmt.Sprintf("Expand the suggested handle(s), starting with %s, and answer; no more queries needed.", label)
	case g.Confidence >= mediumConfidence:
		g.ConfidenceBand = BandMedium
		g.StopQuerying = true
		g.RecommendedAction = ActionExpand
		g.SuggestedExpandCount = min(max(min(m, 3), 1), sel)
		g.MaxAdditionalQueries = 1
		g.NextStep = fmt.Sprintf("Expand the %d suggested handle(s) (best: %s); query once more only if they do not answer the question (%s).",
			g.SuggestedExpandCount, label, strings.Join(why, "; "))
	default:
		g.ConfidenceBand = BandLow
		g.RecommendedAction = ActionRefine
		g.SuggestedExpandCount = min(1, sel)
		g.MaxAdditionalQueries = 2
		g.NextStep = fmt.Sprintf("Evidence is weak (%s). Run one narrower query (a symbol name, kind=definition, a glob, or more specific words), then expand.",
			strings.Join(why, "; "))
	}
	return g
}

// asksAboutTests reports whether a query's words ask about tests.
func asksAboutTests(e *dsl.Expr) bool {
	for _, w := range exprWords(e) {
		if lightStem(w) == "test" {
			return true
		}
	}
	return false
}

// topSignals returns the coverage and name-hit signals of the best doc.
func (ix *Index) topSignals(e *dsl.Expr, n uint32, h *hits) (coverage, nameHit float64) {
	words := exprWords(e)
	if len(words) == 0 {
		return 1, 1 // structural lookup: matched by name or path
	}
	d := &ix.docs[n]
	coverage = 1
	if c, ok := h.cover[n]; ok {
		coverage = c
	}
	if c, ok := h.fileCover[d.file]; ok {
		coverage = c
	}
	name := map[string]bool{}
	terms.Each([]byte(d.name+" "+d.key), func(t []byte, _ bool) { name[string(t)] = true })
	for _, w := range words {
		if name[w] {
			return coverage, 1
		}
	}
	return coverage, 0
}

// exprWords returns the words of the text searches (grep) in e; empty
// when the query has no text search.
func exprWords(e *dsl.Expr) []string {
	var out []string
	if e.Op == dsl.Grep && len(e.Strs) == 1 {
		out = append(out, terms.Words(e.Strs[0])...)
	}
	for _, s := range e.Subs {
		out = append(out, exprWords(s)...)
	}
	return out
}
