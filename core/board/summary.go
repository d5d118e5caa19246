package board

import (
	"fmt"
	"strings"

	"github.com/ccd-dev/ccd/core/words"
)

// View is the orientation every answer ends with: counts, focus, the
// progress of the active analysis, the summary line and the next hint.
type View struct {
	Evidence   int
	Claims     int // all claims
	OpenClaims int // claims still open
	Decisions  int
	Focus      Focus
	// Progress is the active analysis's progress, nil when none is active.
	Progress *Progress
	// Summary is the one-line board summary:
	//	Board: N evidence, M claims, K decisions | Focus: X | Progress: d/t addressed
	Summary string
	// Next is the context-aware next-step hint ("Next: ..."), or "".
	Next string
}

// NoFocus and NoProgress are what the summary prints when there is no
// focus or no active analysis.
const (
	NoFocus    = "(none)"
	NoProgress = "-"
)

// view computes the View for action; call with b.mu held.
func (b *Board) view(action string) View {
	v := View{Evidence: len(b.st.Evidence), Claims: len(b.st.Claims), Decisions: len(b.st.Decisions), Focus: b.st.Focus}
	for _, c := range b.st.Claims {
		if c.Status == Open {
			v.OpenClaims++
		}
	}
	if a := b.active(); a != nil {
		p := a.progress()
		v.Progress = &p
	}
	v.Summary = summaryLine(v)
	v.Next = b.next(action, v)
	return v
}

func summaryLine(v View) string {
	focus := v.Focus.Label
	if focus == "" {
		focus = NoFocus
	}
	prog := NoProgress
	if p := v.Progress; p != nil {
		prog = fmt.Sprintf("%d/%d addressed", p.Done, p.Total)
	}
	return fmt.Sprintf("Board: %d evidence, %d claims, %d decisions | Focus: %s | Progress: %s",
		v.Evidence, v.Claims, v.Decisions, focus, prog)
}

// Hint texts. They name the real tool calls, so a small model can copy
// them.
const (
	hintImpact  = `Next: Use canvas(action="impact", symbol="<target>") to see a symbol's callers, callees and affected tests before changing it.`
	hintRecord  = `Next: Record what you see with canvas(action="claim", text="...") or a plan with canvas(action="decide", text="...")`
	hintClaim   = `Next: Continue the analysis, or commit with canvas(action="decide", text="...").`
	hintResolve = `Next: Record what follows with canvas(action="decide", text="..."), or keep analysing.`
	hintDecide  = `Next: Carry out the plan, then canvas(action="mark", symbol="...") each node you verified`
	hintInit    = `Next: Use canvas(action="init") to index the project and draw its architecture.`
	hintGeneric = `Next: Continue with the remaining affected nodes, or start a new impact analysis.`
)

// manyNodes is where checking every affected node one by one stops being
// the suggestion.
const manyNodes = 25

// next is the hint for action given view v; call with b.mu held.
func (b *Board) next(action string, v View) string {
	p := v.Progress
	left := 0
	if p != nil {
		left = len(p.Remaining)
	}
	switch action {
	case "init":
		return hintImpact
	case "impact":
		switch {
		case p != nil && p.Total > manyNodes:
			return fmt.Sprintf("%s; after your change, run the affected tests and mark or skip the callers you check (%d affected nodes).", hintRecord, p.Total)
		case p != nil && p.Total > 1:
			return fmt.Sprintf("%s; after your change, mark or skip each of the %d affected nodes.", hintRecord, p.Total)
		}
		return hintRecord + "."
	case "claim":
		return hintClaim
	case "resolve":
		return hintResolve
	case "decide":
		if left > 0 {
			return fmt.Sprintf("%s (%d affected nodes left, e.g. %s).", hintDecide, left, p.Remaining[0].Label)
		}
		return hintDecide + "."
	case "mark", "skip":
		switch {
		case p == nil:
			return hintGeneric
		case left > 0:
			return fmt.Sprintf("Next: %d affected %s of %s left: %s. Mark or skip each, or start a new impact analysis.",
				left, words.Plural(left, "node", "nodes"), p.Label, refList(p.Remaining, 5))
		default:
			return fmt.Sprintf(`Next: All %d affected nodes of %s are addressed. Record the outcome with canvas(action="claim", kind="finding", text="..."), or analyse the next symbol with impact.`,
				p.Total, p.Label)
		}
	case "task_select":
		if left > 0 {
			return fmt.Sprintf(`Next: Use canvas(action="impact", symbol=%q) to begin the analysis.`, p.Remaining[0].Label)
		}
		return `Next: Use canvas(action="impact", symbol="<target>") to begin the analysis.`
	case "status", "read":
		switch {
		case v.Evidence == 0:
			return hintInit
		case left > 0:
			return fmt.Sprintf("Next: %d affected %s of %s left: %s. Mark or skip each as you verify it.",
				left, words.Plural(left, "node", "nodes"), p.Label, refList(p.Remaining, 5))
		case v.OpenClaims > 0:
			return fmt.Sprintf(`Next: Settle open claims with canvas(action="claim", kind="confirmed|refuted|answered", text="%s: why"), or analyse another symbol with impact.`,
				b.latestOpenClaim())
		}
		return hintImpact
	}
	return ""
}

// latestOpenClaim is the id of the newest open claim; call with b.mu held.
func (b *Board) latestOpenClaim() string {
	for i := len(b.st.Claims) - 1; i >= 0; i-- {
		if b.st.Claims[i].Status == Open {
			return b.st.Claims[i].ID
		}
	}
	return "C1"
}

// refList renders up to n labels, then "(+k more)".
func refList(rs []Ref, n int) string {
	var parts []string
	for i, r := range rs {
		if i == n {
			break
		}
		parts = append(parts, r.Label)
	}
	s := strings.Join(parts, ", ")
	if len(rs) > n {
		s += fmt.Sprintf(" (+%d more)", len(rs)-n)
	}
	return s
}
