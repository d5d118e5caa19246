package board

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/words"
)

// metricOrder is the order metrics print in; other keys follow sorted.
var metricOrder = []string{"modules", "classes", "funcs", "files", "call_edges", "import_edges",
	"callers", "callees", "blast_radius", "blast_files", "tests", "depth"}

// FormatMetrics renders metrics as "key=value" pairs in a stable order.
func FormatMetrics(m map[string]int) string {
	var parts []string
	done := map[string]bool{}
	for _, k := range metricOrder {
		if v, ok := m[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", k, v))
			done[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// WriteText writes the board as text for agents without images (the read
// action): project, focus and progress, then the newest limit items of
// each section (limit <= 0: all), each text cut to 300 characters. It
// leaves out the summary line, which callers print last (s.View.Summary).
func (s Snapshot) WriteText(out io.Writer, limit int) {
	var w strings.Builder
	defer func() { io.WriteString(out, strings.TrimLeft(w.String(), "\n")) }()
	if s.Project.Root != "" {
		fmt.Fprintf(&w, "Project: %s (generation %d, %d files)\n", s.Project.Root, s.Project.Generation, s.Project.Files)
	}
	if p := s.View.Progress; p != nil {
		fmt.Fprintf(&w, "Focus: %s — %d/%d addressed (%d marked, %d skipped)", p.Label, p.Done, p.Total, p.Marked, p.Skipped)
		if len(p.Remaining) > 0 {
			fmt.Fprintf(&w, "; remaining: %s", refList(p.Remaining, 10))
		}
		fmt.Fprintln(&w)
	}
	older := func(n int, what string) {
		if n > 0 {
			fmt.Fprintf(&w, "  … %d older %s not shown\n", n, what)
		}
	}
	ev, skip := newest(len(s.Evidence), limit)
	fmt.Fprintf(&w, "\nEvidence (%d):\n", len(s.Evidence))
	older(skip, "evidence")
	for _, e := range s.Evidence[ev:] {
		what := string(e.Kind)
		if e.Symbol != "" {
			what += fmt.Sprintf(" %q", e.Symbol)
		}
		fmt.Fprintf(&w, "  %s %s: %s\n", e.ID, what, FormatMetrics(e.Metrics))
	}
	c0, skip := newest(len(s.Claims), limit)
	fmt.Fprintf(&w, "\nClaims (%d, %d open):\n", len(s.Claims), s.View.OpenClaims)
	older(skip, "claims")
	for _, c := range s.Claims[c0:] {
		fmt.Fprintf(&w, "  %s [%s, %s]%s %s\n", c.ID, c.Kind, c.Status, link(c.Evidence), words.Clip(c.Text, 300))
		if c.Resolution != "" {
			fmt.Fprintf(&w, "      %s: %s\n", c.Status, words.Clip(c.Resolution, 300))
		}
	}
	d0, skip := newest(len(s.Decisions), limit)
	fmt.Fprintf(&w, "\nDecisions (%d):\n", len(s.Decisions))
	older(skip, "decisions")
	for _, d := range s.Decisions[d0:] {
		sym := ""
		if d.Symbol != "" {
			sym = " " + d.Symbol
		}
		text := ""
		if d.Text != "" {
			text = " " + words.Clip(d.Text, 300)
		}
		fmt.Fprintf(&w, "  %s [%s]%s%s%s\n", d.ID, d.Kind, sym, link(d.Evidence), text)
	}
	if len(s.Analyses) > 0 {
		a0, skip := newest(len(s.Analyses), limit)
		fmt.Fprintf(&w, "\nAnalyses (%d):\n", len(s.Analyses))
		older(skip, "analyses")
		for _, a := range s.Analyses[a0:] {
			p := a.progress()
			src := ""
			if a.Evidence != "" {
				src = " (" + a.Evidence + ")"
			}
			fmt.Fprintf(&w, "  %s%s: %d/%d addressed", a.Label, src, p.Done, p.Total)
			if len(p.Remaining) > 0 {
				fmt.Fprintf(&w, "; remaining: %s", refList(p.Remaining, 5))
			}
			fmt.Fprintln(&w)
		}
	}
	if len(s.Tasks) > 0 {
		fmt.Fprintf(&w, "\nTasks (%d):\n", len(s.Tasks))
		for i, t := range s.Tasks {
			if limit > 0 && i == limit {
				fmt.Fprintf(&w, "  … %d more\n", len(s.Tasks)-limit)
				break
			}
			mark := " "
			if t.ID == s.ActiveTask {
				mark = "*"
			}
			fmt.Fprintf(&w, " %s%s %s\n", mark, t.ID, words.Clip(t.Title, 120))
		}
	}
}

// newest returns the first index to show of n items and how many are
// left out.
func newest(n, limit int) (start, skipped int) {
	if limit <= 0 || n <= limit {
		return 0, 0
	}
	return n - limit, n - limit
}

func link(ev string) string {
	if ev == "" {
		return ""
	}
	return " → " + ev
}
