package retrieval

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/search"
)

// Limit is how many results count: `ccd query QUESTION --limit 8`.
const Limit = 8

// Answer is one system's answer to one question: the files in the order
// they came, and the rank (1-based) of the first gold file, 0 when absent.
type Answer struct {
	Files []string
	Rank  int
	Took  time.Duration
	// CPU is the CPU time of ccd's answer on its thread (0 when unknown):
	// unlike Took, it does not grow when other processes load the machine.
	CPU time.Duration
}

// Outcome is one question answered by ccd and by the grep loop.
type Outcome struct {
	Q         Question
	CCD, Grep Answer
	Note      string // ccd's note (partial matches, ...)
	// Pack is ccd's evidence pack for the question: its confidence band
	// and the rank of the first gold file among the pack's files.
	Pack PackOutcome
}

// PackOutcome is what an evidence pack said about a question, beside
// whether it was right.
type PackOutcome struct {
	Band       string
	Confidence float64
	Rank       int // of the first gold file among the pack's files, 0 when absent
}

// Ask answers q on c with ccd's query (as `ccd query Q --limit 8`, the
// graph's references given) and, when grep is set, with the grep loop.
func Ask(c *Corpus, q Question, grep bool) (Outcome, error) {
	o := Outcome{Q: q}
	runtime.LockOSThread()
	c0, cok := threadCPU()
	t0 := time.Now()
	res, err := c.Index.Query(search.QueryParams{Pattern: q.Text, Limit: Limit}, search.GraphRefs(c.Graph))
	o.CCD.Took = time.Since(t0)
	if c1, ok := threadCPU(); ok && cok {
		o.CCD.CPU = c1 - c0
	}
	runtime.UnlockOSThread()
	if err != nil {
		return o, fmt.Errorf("query %q: %w", q.Text, err)
	}
	o.Note = res.Note
	for _, h := range res.Handles {
		o.CCD.Files = appendNew(o.CCD.Files, h.FilePath)
	}
	o.CCD.Rank = rank(o.CCD.Files, q.Gold)
	p, err := c.Index.EvidencePack(search.PackRequest{QueryParams: search.QueryParams{Pattern: q.Text}}, nil, search.GraphRefs(c.Graph))
	if err != nil {
		return o, fmt.Errorf("evidence pack %q: %w", q.Text, err)
	}
	var packFiles []string
	for _, f := range p.Files {
		packFiles = append(packFiles, f.FilePath)
	}
	o.Pack = PackOutcome{Band: p.Guidance.ConfidenceBand, Confidence: p.Guidance.Confidence, Rank: rank(packFiles, q.Gold)}
	if !grep {
		return o, nil
	}
	t0 = time.Now()
	files := Grep(c.Files, q.Text)
	o.Grep.Took = time.Since(t0)
	if len(files) > Limit {
		files = files[:Limit]
	}
	o.Grep.Files = files
	o.Grep.Rank = rank(files, q.Gold)
	return o, nil
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// rank is the 1-based position of the first gold file among files, 0 when
// none is there.
func rank(files, gold []string) int {
	for i, f := range files {
		for _, g := range gold {
			if f == g {
				return i + 1
			}
		}
	}
	return 0
}

// AskWhileFilling asks qs one after another on a fresh index that fills in
// the background, from the moment it starts, and returns ccd's answers
// and how many of them were made while files were still pending.
func AskWhileFilling(c *Corpus, qs []Question) ([]Answer, int, error) {
	ix, err := c.Filling()
	if err != nil {
		return nil, 0, err
	}
	var out []Answer
	partial := 0
	for _, q := range qs {
		t0 := time.Now()
		res, err := ix.Query(search.QueryParams{Pattern: q.Text, Limit: Limit}, nil)
		if err != nil {
			return nil, 0, err
		}
		a := Answer{Took: time.Since(t0)}
		for _, h := range res.Handles {
			a.Files = appendNew(a.Files, h.FilePath)
		}
		a.Rank = rank(a.Files, q.Gold)
		if res.PendingFiles > 0 {
			partial++
		}
		out = append(out, a)
	}
	// Let the background fill end before anything else is measured.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ix.Wait(ctx)
	return out, partial, nil
}

// Metrics are the figures of a set of answers.
type Metrics struct {
	N        int
	At1, At8 int     // questions with a gold file first, in the top 8
	MRR      float64 // mean reciprocal rank within the top 8
	P50, P99 time.Duration
	// CPU50, CPU99 are the percentiles of CPU time (0 when unknown).
	CPU50, CPU99 time.Duration
	TotalWall    time.Duration
	FirstFound   int
}

// Summarise computes the metrics of the answers pick selects.
func Summarise(os []Outcome, pick func(Outcome) Answer) Metrics {
	var m Metrics
	var lat, cpu []time.Duration
	for _, o := range os {
		a := pick(o)
		cpu = append(cpu, a.CPU)
		m.N++
		if a.Rank == 1 {
			m.At1++
		}
		if a.Rank >= 1 && a.Rank <= Limit {
			m.At8++
			m.MRR += 1 / float64(a.Rank)
		}
		lat = append(lat, a.Took)
		m.TotalWall += a.Took
	}
	if m.N > 0 {
		m.MRR /= float64(m.N)
	}
	m.P50, m.P99 = percentiles(lat)
	m.CPU50, m.CPU99 = percentiles(cpu)
	return m
}

// percentiles returns the median and the 99th percentile of ds.
func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	ds = append([]time.Duration(nil), ds...)
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], ds[min(len(ds)-1, len(ds)*99/100)]
}

// FillingRun is the first questions of a corpus asked while its index
// fills, beside the same questions on the complete index.
type FillingRun struct {
	Corpus            string
	Filling, Complete []Answer
	Partial           int // answered while files were pending
}

// SetNotes describe question sets in a report, by set name.
var SetNotes = map[string]string{
	"questions": "written from what each file does, not from its words; ranking work looked at these questions and their misses",
	"heldout": "written the same way before the second round of ranking work and never used to tune it; the third round " +
		"looked at its misses too, so it is now a tuning set like the first",
	"heldout2": "written the same way before the third round of ranking work, over packages neither other set uses, and " +
		"held out of it; the fourth round looked at its misses, so it is now a tuning set too",
	"heldout3": "written the same way before the fourth round of ranking work, over packages and modules no other set uses, " +
		"and held out of rounds 4 and 5 (they looked only at its totals); round 6 looked at its misses while developing, " +
		"so it is no longer held out (its questions are still not listed)",
	"heldout4": "written the same way before the fifth round of ranking work, over packages and modules no other set uses, " +
		"and held out of round 5 (it looked only at its totals); round 6 looked at its misses while developing, " +
		"so it is no longer held out (its questions are still not listed)",
	"heldout5": "written the same way before the sixth round of ranking work, over packages and modules no other set uses, " +
		"and never used to tune it (round 6 looked only at its totals, at its start and at its end): the newest figure, on questions that avoid the answer's words, that says whether the ranking generalises",
	"heldout6": "written before the seventh round by a writer who never saw the ranking code or its results, in the style of the " +
		"issue's examples (what a developer types into a code search: domain words allowed, identifiers not copied), over files no other set " +
		"uses as gold; round 7 looked only at its totals, at its start and at its end",
}

// Sealed sets are reported by their totals only: their misses are not
// listed, so that later rounds of ranking work cannot tune on them and
// they stay unseen. heldout3 and heldout4 stay sealed in the report,
// though round 6 looked at their misses (with -v -unseal) while
// developing; heldout5 is the one held out of round 6, heldout6 the one
// held out of round 7.
var Sealed = map[string]bool{"heldout3": true, "heldout4": true, "heldout5": true, "heldout6": true}

// LoadAverage is the machine's one-minute load average (-1 when unknown).
func LoadAverage() float64 { return loadAverage() }

// Report renders the outcomes as Markdown: per question set, corpus and
// kind, ccd beside the grep loop, the answers made while the index fills,
// then every question ccd missed.
func Report(outs []Outcome, corpora []*Corpus, fills []FillingRun, command string, load [2]float64) string {
	var b strings.Builder
	var sets []string
	bySet := map[string][]Outcome{}
	for _, o := range outs {
		if _, ok := bySet[o.Q.Set]; !ok {
			sets = append(sets, o.Q.Set)
		}
		bySet[o.Q.Set] = append(bySet[o.Q.Set], o)
	}
	fmt.Fprintf(&b, "# Retrieval against gold files\n\nGenerated by `%s`: %d questions in %d set(s), each asked as `ccd query QUESTION --limit %d` on a complete index (latency after one untimed warm-up query that loads the tokenizer), "+
		"and of a keyword grep loop (every word of three letters or more, stop words left out, grepped case-insensitively; "+
		"files ranked by how many of the words they hold, then how often). A question counts when a gold file is among the "+
		"files of the first %d results.\n\n", command, len(outs), len(sets), Limit, Limit)
	for _, c := range corpora {
		fmt.Fprintf(&b, "- %s (`%s`): %d files indexed in %s; the search index takes %.0f MB, %.0f MB once compacted.\n", c.Name, c.Root,
			len(c.Files), c.Took.Round(100*time.Millisecond), float64(c.Size)/(1<<20), float64(c.Compacted)/(1<<20))
	}
	b.WriteString("\nQuery latency over every question of every set, per corpus (complete index; wall clock, and in brackets the CPU time of the query's thread, which other processes' load does not inflate): ")
	for i, corpus := range []string{"go", "py"} {
		var sel []Outcome
		for _, o := range outs {
			if o.Q.Corpus == corpus {
				sel = append(sel, o)
			}
		}
		if len(sel) == 0 {
			continue
		}
		m := Summarise(sel, func(o Outcome) Answer { return o.CCD })
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s p50 %s, p99 %s [CPU p50 %s, p99 %s] (%d queries)", corpus, ms(m.P50), ms(m.P99), ms(m.CPU50), ms(m.CPU99), m.N)
	}
	b.WriteString(".")
	if load[0] >= 0 {
		fmt.Fprintf(&b, " The machine's one-minute load average was %.1f when the questions began and %.1f when they ended.", load[0], load[1])
	}
	b.WriteString("\n")
	for _, set := range sets {
		sel := bySet[set]
		fmt.Fprintf(&b, "\n## `testdata/retrieval/%s.tsv`: %d questions\n\n", set, len(sel))
		if n := SetNotes[set]; n != "" {
			fmt.Fprintf(&b, "Questions %s.\n\n", n)
		}
		writeTable(&b, sel)
	}
	if len(fills) > 0 {
		fmt.Fprintf(&b, "\n## While the index fills\n\nThe first natural-language questions of each corpus (of `%s.tsv`) asked one after another on a fresh index "+
			"that fills in the background (as after the daemon starts): each query greps the pending files for its words, within %s, "+
			"indexes those holding the most of them first, within %s in all, and says when files are still pending.\n\n"+
			"| corpus | questions | answered while pending | recall@8 filling | recall@8 complete | filling p50 / p99 |\n|---|---|---|---|---|---|\n",
			sets[0], search.CatchUpGrepBudget, search.CatchUpTotalBudget)
		for _, f := range fills {
			pick := func(as []Answer) (int, []time.Duration) {
				n := 0
				var lat []time.Duration
				for _, a := range as {
					if a.Rank >= 1 && a.Rank <= Limit {
						n++
					}
					lat = append(lat, a.Took)
				}
				return n, lat
			}
			nf, lat := pick(f.Filling)
			nc, _ := pick(f.Complete)
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s / %s |\n", f.Corpus, len(f.Filling), f.Partial, frac(nf, len(f.Filling)),
				frac(nc, len(f.Complete)), ms(lat[len(lat)/2]), ms(lat[min(len(lat)-1, len(lat)*99/100)]))
		}
	}
	writeGuidance(&b, outs)
	for _, set := range sets {
		if Sealed[set] {
			fmt.Fprintf(&b, "\n## Questions of `%s.tsv` ccd missed\n\nNot listed: the set is sealed (its totals only), so that ranking work cannot tune on it.\n", set)
			continue
		}
		fmt.Fprintf(&b, "\n## Questions of `%s.tsv` ccd missed (gold not in its top %d)\n\n| question | gold | ccd's first files | grep rank |\n|---|---|---|---|\n", set, Limit)
		for _, o := range bySet[set] {
			if o.CCD.Rank >= 1 {
				continue
			}
			first := o.CCD.Files
			if len(first) > 3 {
				first = first[:3]
			}
			gr := "-"
			if o.Grep.Rank > 0 {
				gr = fmt.Sprint(o.Grep.Rank)
			}
			fmt.Fprintf(&b, "| %s: %s | %s | %s | %s |\n", o.Q.Corpus, o.Q.Text, strings.Join(o.Q.Gold, ", "), strings.Join(first, ", "), gr)
		}
	}
	return b.String()
}

// writeGuidance writes how the evidence packs' confidence bands bear out
// on the natural-language questions of every set: an honest band says
// "high" when the pack's first file is the answer.
func writeGuidance(b *strings.Builder, outs []Outcome) {
	b.WriteString("\n## Evidence-pack guidance\n\nEach natural-language question of every set also asked as `ccd pack QUESTION` (8 handles, at most 2 per file): " +
		"how often the pack's first file, or any of its files, holds the answer, by the confidence band the pack gave. " +
		"High and medium say stop querying and expand; low says refine the query.\n\n" +
		"| band | questions | gold file first | gold file in the pack | mean confidence |\n|---|---|---|---|---|\n")
	for _, band := range []string{search.BandHigh, search.BandMedium, search.BandLow} {
		n, first, in := 0, 0, 0
		conf := 0.0
		for _, o := range outs {
			if o.Q.Kind != "nl" || o.Pack.Band != band {
				continue
			}
			n++
			conf += o.Pack.Confidence
			if o.Pack.Rank == 1 {
				first++
			}
			if o.Pack.Rank >= 1 {
				in++
			}
		}
		if n == 0 {
			fmt.Fprintf(b, "| %s | 0 | | | |\n", band)
			continue
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %.2f |\n", band, n, frac(first, n), frac(in, n), conf/float64(n))
	}
}

// writeTable writes the figures of outs per corpus and kind, and for all
// of them, ccd beside the grep loop.
func writeTable(b *strings.Builder, outs []Outcome) {
	b.WriteString("| corpus | kind | questions | ccd recall@1 | ccd recall@8 | ccd MRR | grep recall@1 | grep recall@8 | grep MRR | ccd p50 / p99 |\n|---|---|---|---|---|---|---|---|---|---|\n")
	groups := []struct{ corpus, kind string }{{"go", "nl"}, {"py", "nl"}, {"go", "symbol"}, {"py", "symbol"}, {"", ""}}
	for _, g := range groups {
		var sel []Outcome
		for _, o := range outs {
			if (g.corpus == "" || o.Q.Corpus == g.corpus) && (g.kind == "" || o.Q.Kind == g.kind) {
				sel = append(sel, o)
			}
		}
		if len(sel) == 0 {
			continue
		}
		c := Summarise(sel, func(o Outcome) Answer { return o.CCD })
		gr := Summarise(sel, func(o Outcome) Answer { return o.Grep })
		corpus, kind := g.corpus, g.kind
		if corpus == "" {
			corpus, kind = "**all**", "**all**"
		}
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %.3f | %s | %s | %.3f | %s / %s |\n", corpus, kind, c.N,
			frac(c.At1, c.N), frac(c.At8, c.N), c.MRR, frac(gr.At1, gr.N), frac(gr.At8, gr.N), gr.MRR,
			ms(c.P50), ms(c.P99))
	}
}

func frac(n, d int) string {
	return fmt.Sprintf("%d/%d (%.0f%%)", n, d, 100*float64(n)/float64(max(d, 1)))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
