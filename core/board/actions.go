package board

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
)

// Init records the architecture overview of the project as evidence and
// points the focus at the project when nothing else has it. It never
// removes anything: claims, decisions, analyses and focus survive a
// re-init. When the newest architecture evidence already describes the
// same root, generation and metrics, no new evidence is made and created
// is false.
func (b *Board) Init(p Project, metrics map[string]int) (ev Evidence, created bool, v View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.touch()
	if p.Name == "" && p.Root != "" {
		p.Name = filepath.Base(p.Root)
	}
	p.InitAt = t
	prevRoot := b.st.Project.Root
	b.st.Project = p
	for i := len(b.st.Evidence) - 1; i >= 0; i-- {
		e := b.st.Evidence[i]
		if e.Kind != Architecture {
			continue
		}
		if prevRoot == p.Root && e.Generation == p.Generation && maps.Equal(e.Metrics, metrics) {
			ev = e
		}
		break
	}
	if ev.ID == "" {
		ev = Evidence{ID: b.nextEvidence(), Kind: Architecture, Metrics: copyMetrics(metrics), Generation: p.Generation, Created: t}
		b.st.Evidence = append(b.st.Evidence, ev)
		created = true
	}
	b.st.Latest = ev.ID
	if b.st.Focus.Kind == "" {
		b.st.Focus = Focus{Kind: FocusProject, Label: p.Name}
	}
	return ev, created, b.view("init")
}

// ImpactSpec is one impact analysis to record.
type ImpactSpec struct {
	Target     Ref
	Metrics    map[string]int
	Generation uint64
	// Affected are the nodes the agent should address (mark or skip): the
	// target's direct callers. The target itself is always included, first.
	Affected []Ref
}

// AddImpact records the blast radius of a symbol as evidence, makes (or
// refreshes) the symbol's analysis and focuses on it. An identical impact
// already on the board (same node, generation and metrics) is reused
// rather than repeated; created says which happened.
func (b *Board) AddImpact(s ImpactSpec) (ev Evidence, created bool, v View) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.touch()
	if s.Target.Label == "" {
		s.Target.Label = s.Target.ID
	}
	for _, e := range b.st.Evidence {
		if e.Kind == Impact && e.Node == s.Target.ID && e.Generation == s.Generation && maps.Equal(e.Metrics, s.Metrics) {
			ev = e
		}
	}
	if ev.ID == "" {
		ev = Evidence{ID: b.nextEvidence(), Kind: Impact, Symbol: s.Target.Label, Node: s.Target.ID,
			Metrics: copyMetrics(s.Metrics), Generation: s.Generation, Created: t}
		b.st.Evidence = append(b.st.Evidence, ev)
		created = true
	}
	b.st.Latest = ev.ID
	nodes := append([]Ref{s.Target}, s.Affected...)
	b.upsertAnalysis(s.Target.ID, s.Target.Label, ev.ID, nodes)
	b.st.Focus = Focus{Kind: FocusSymbol, Label: s.Target.Label, Node: s.Target.ID, Analysis: s.Target.ID}
	return ev, created, b.view("impact")
}

// Claim records a claim of the given kind, open, linked to the latest
// evidence (the one made or reused by the latest init or impact).
func (b *Board) Claim(kind ClaimKind, text string) (Claim, View, error) {
	text, err := cleanText("claim", text, true)
	if err != nil {
		return Claim{}, View{}, err
	}
	switch kind {
	case Hypothesis, Finding, Question:
	default:
		return Claim{}, View{}, &Error{Code: CodeBadKind, Message: fmt.Sprintf("unknown claim kind %q", kind),
			Hint: "use kind=hypothesis, finding or question"}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.touch()
	c := Claim{ID: b.nextClaim(), Kind: kind, Text: text, Status: Open, Evidence: b.latestEvidence(),
		Focus: b.st.Focus.Label, Created: t}
	b.st.Claims = append(b.st.Claims, c)
	return c, b.view("claim"), nil
}

var claimRef = regexp.MustCompile(`^\s*\[?([Cc]\d+)\]?\s*[:.,;\-–—]?\s*`)

// SplitClaimRef splits "C3: why" into "C3" and "why". It reports false
// when text does not start with a claim id.
func SplitClaimRef(text string) (id, rest string, ok bool) {
	m := claimRef.FindStringSubmatchIndex(text)
	if m == nil {
		return "", text, false
	}
	return strings.ToUpper(text[m[2]:m[3]]), strings.TrimSpace(text[m[1]:]), true
}

// Resolve settles claim id: hypotheses and findings become Confirmed or
// Refuted, questions Answered. note says why. A settled claim may be
// settled again (the agent changed its mind); the latest word counts.
func (b *Board) Resolve(id string, status ClaimStatus, note string) (Claim, View, error) {
	note, err := cleanText("claim", note, false)
	if err != nil {
		return Claim{}, View{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	id = strings.ToUpper(strings.TrimSpace(id))
	for i := range b.st.Claims {
		c := &b.st.Claims[i]
		if c.ID != id {
			continue
		}
		switch {
		case status == Answered && c.Kind != Question:
			return Claim{}, View{}, &Error{Code: CodeBadStatus, Message: fmt.Sprintf("%s is a %s; only questions are answered", c.ID, c.Kind),
				Hint: fmt.Sprintf(`use kind=confirmed or kind=refuted with text="%s: why"`, c.ID)}
		case (status == Confirmed || status == Refuted) && c.Kind == Question:
			return Claim{}, View{}, &Error{Code: CodeBadStatus, Message: fmt.Sprintf("%s is a question; questions are answered, not %s", c.ID, status),
				Hint: fmt.Sprintf(`use kind=answered with text="%s: the answer"`, c.ID)}
		case status != Confirmed && status != Refuted && status != Answered:
			return Claim{}, View{}, &Error{Code: CodeBadStatus, Message: fmt.Sprintf("cannot set a claim to %q", status),
				Hint: "use kind=confirmed, refuted or answered"}
		}
		c.Status, c.Resolution, c.Resolved = status, note, b.touch()
		return *c, b.view("resolve"), nil
	}
	return Claim{}, View{}, b.unknownClaim(id)
}

// unknownClaim explains a claim id not on the board; call with b.mu held.
func (b *Board) unknownClaim(id string) error {
	hint := "the board has no claims yet; record one with kind=hypothesis, finding or question"
	if n := len(b.st.Claims); n > 0 {
		var open []string
		for _, c := range b.st.Claims {
			if c.Status == Open {
				open = append(open, c.ID)
			}
		}
		hint = fmt.Sprintf("claims are C1..C%d", b.st.Seq.C)
		if len(open) > 0 {
			hint += "; open: " + strings.Join(tail(open, 8), ", ")
		}
	}
	return &Error{Code: CodeUnknownClaim, Message: fmt.Sprintf("no claim %s on the board", id), Hint: hint}
}

// Decide records a plan, test or edit decision, linked to the latest
// evidence. sym optionally names the node it is about.
func (b *Board) Decide(kind DecisionKind, text string, sym *Ref) (Decision, View, error) {
	text, err := cleanText("decision", text, true)
	if err != nil {
		return Decision{}, View{}, err
	}
	if kind != Plan && kind != Test && kind != Edit {
		_, err := ParseDecideKind(string(kind))
		if err == nil {
			err = &Error{Code: CodeBadKind, Message: fmt.Sprintf("unknown decision kind %q", kind), Hint: "use kind=plan, test or edit"}
		}
		return Decision{}, View{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.touch()
	d := Decision{ID: b.nextDecision(), Kind: kind, Text: text, Evidence: b.latestEvidence(), Created: t}
	if sym != nil {
		d.Symbol, d.Node = sym.Label, sym.ID
	}
	b.st.Decisions = append(b.st.Decisions, d)
	return d, b.view("decide"), nil
}

// MarkSpec names the node a mark or skip addresses.
type MarkSpec struct {
	Node Ref
	// Enclosing are the ids of the nodes containing Node, nearest first
	// (its class or owner, its module). When Node itself is not in an
	// analysis the first enclosing node that is gets addressed: an impact
	// on a class lists callers aggregated per class.
	Enclosing []string
	Text      string
}

// MarkResult says what a mark or skip did.
type MarkResult struct {
	Decision Decision
	// Analysis is the label of the analysis the node counted toward, ""
	// when it is in none.
	Analysis string
	// As is the analysis node that was addressed: Node or an enclosing one.
	As Ref
	// Previous is how As had been addressed before ("" if it was not).
	Previous DecisionKind
}

// Mark records that a node was verified and counts it in its analysis.
func (b *Board) Mark(s MarkSpec) (MarkResult, View, error) { return b.address(Mark, s) }

// Skip records that a node is out of scope and counts it in its analysis.
func (b *Board) Skip(s MarkSpec) (MarkResult, View, error) { return b.address(Skip, s) }

// address implements Mark and Skip. The analysis searched first is the
// active one, then the others newest first; addressing a node of another
// analysis moves the focus there. A node in no analysis is still recorded
// as a decision, and becomes the focus when no analysis is active.
func (b *Board) address(kind DecisionKind, s MarkSpec) (MarkResult, View, error) {
	text, err := cleanText(string(kind), s.Text, false)
	if err != nil {
		return MarkResult{}, View{}, err
	}
	if s.Node.ID == "" {
		return MarkResult{}, View{}, &Error{Code: CodeMissingSymbol, Message: string(kind) + " needs a symbol",
			Hint: fmt.Sprintf(`pass symbol="..." naming the function, class or file to %s`, kind)}
	}
	if s.Node.Label == "" {
		s.Node.Label = s.Node.ID
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.touch()
	cands := append([]string{s.Node.ID}, s.Enclosing...)
	var hit *Analysis
	var as string
	find := func(a *Analysis) bool {
		for _, c := range cands {
			if a.has(c) {
				hit, as = a, c
				return true
			}
		}
		return false
	}
	if a := b.active(); a == nil || !find(a) {
		for i := len(b.st.Analyses) - 1; i >= 0; i-- {
			if find(b.st.Analyses[i]) {
				break
			}
		}
	}
	res := MarkResult{As: s.Node}
	d := Decision{ID: b.nextDecision(), Kind: kind, Text: text, Symbol: s.Node.Label, Node: s.Node.ID,
		Evidence: b.latestEvidence(), Created: t}
	if hit != nil {
		for _, n := range hit.Nodes {
			if n.ID == as {
				res.As = n
			}
		}
		if hit.Evidence != "" {
			d.Evidence = hit.Evidence
		}
		res.Previous = hit.Addressed[as].Status
		hit.Addressed[as] = Address{Status: kind, Decision: d.ID}
		res.Analysis = hit.Label
		if b.st.Focus.Analysis != hit.Key {
			b.st.Focus = focusOf(hit)
		}
	} else if b.active() == nil {
		b.st.Focus = Focus{Kind: FocusSymbol, Label: s.Node.Label, Node: s.Node.ID}
	}
	b.st.Decisions = append(b.st.Decisions, d)
	res.Decision = d
	return res, b.view(string(kind)), nil
}

// focusOf is the focus pointing at analysis a.
func focusOf(a *Analysis) Focus {
	if id, ok := strings.CutPrefix(a.Key, "task:"); ok {
		return Focus{Kind: FocusTask, Label: "task " + id, Analysis: a.Key}
	}
	return Focus{Kind: FocusSymbol, Label: a.Label, Node: a.Key, Analysis: a.Key}
}

// SetTasks replaces the board's task list (as read from tasks.yaml).
func (b *Board) SetTasks(ts []Task) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.touch()
	b.st.Tasks = cloneTasks(ts)
}

// SelectTask makes task id the active task and focus. nodes are the
// graph nodes its symbols and files resolve to; when there are any they
// become the task's analysis, so progress counts them.
func (b *Board) SelectTask(id string, nodes []Ref) (Task, View, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.st.Tasks) == 0 {
		return Task{}, View{}, &Error{Code: CodeNoTasks, Message: "no tasks are loaded",
			Hint: "write the tasks in tasks.yaml (see the ccd documentation of core/board) and call task_select again"}
	}
	var task *Task
	ids := make([]string, 0, len(b.st.Tasks))
	for i := range b.st.Tasks {
		ids = append(ids, b.st.Tasks[i].ID)
		if strings.EqualFold(b.st.Tasks[i].ID, strings.TrimSpace(id)) {
			task = &b.st.Tasks[i]
		}
	}
	if task == nil {
		return Task{}, View{}, &Error{Code: CodeUnknownTask, Message: fmt.Sprintf("no task %q in tasks.yaml", id),
			Hint: "task ids: " + strings.Join(head(ids, 20), ", ")}
	}
	b.touch()
	b.st.ActiveTask = task.ID
	key := "task:" + task.ID
	f := Focus{Kind: FocusTask, Label: "task " + task.ID}
	if len(nodes) > 0 {
		b.upsertAnalysis(key, "task "+task.ID, "", nodes)
		f.Analysis = key
	}
	b.st.Focus = f
	return cloneTasks([]Task{*task})[0], b.view("task_select"), nil
}

// View returns the board's summary and the next hint for action (one of
// init, impact, claim, resolve, decide, mark, skip, task_select, status,
// read).
func (b *Board) View(action string) View {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.view(action)
}

func copyMetrics(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	maps.Copy(out, m)
	return out
}

func cloneTasks(ts []Task) []Task {
	out := make([]Task, len(ts))
	for i, t := range ts {
		t.Symbols = append([]string(nil), t.Symbols...)
		t.Files = append([]string(nil), t.Files...)
		out[i] = t
	}
	return out
}

func head(xs []string, n int) []string {
	if len(xs) > n {
		return append(append([]string(nil), xs[:n]...), "…")
	}
	return xs
}

func tail(xs []string, n int) []string {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}
