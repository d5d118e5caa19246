package board

// Analysis tracks the nodes one impact (or one task) asks the agent to
// address, and which of them were marked or skipped.
type Analysis struct {
	// Key is the analysed node id, or "task:<id>" for a task.
	Key   string `json:"key"`
	Label string `json:"label"`
	// Evidence is the impact evidence that defined the nodes (none for a
	// task).
	Evidence string `json:"evidence,omitempty"`
	// Nodes are the affected nodes: the target and its direct callers for
	// an impact, the resolved symbols and files of a task.
	Nodes []Ref `json:"nodes"`
	// Addressed maps node ids to how they were addressed. Entries for
	// nodes no longer in Nodes (after a newer impact) are kept but not
	// counted.
	Addressed map[string]Address `json:"addressed"`
}

// Address records how one node was addressed.
type Address struct {
	Status   DecisionKind `json:"status"` // Mark or Skip
	Decision string       `json:"decision"`
}

// Progress is how far an analysis is.
type Progress struct {
	Key     string `json:"key"`
	Label   string `json:"label"`
	Done    int    `json:"addressed"`
	Total   int    `json:"total"`
	Marked  int    `json:"marked"`
	Skipped int    `json:"skipped"`
	// Remaining are the nodes not yet addressed, in analysis order.
	Remaining []Ref `json:"remaining"`
}

func (a *Analysis) has(id string) bool {
	for _, n := range a.Nodes {
		if n.ID == id {
			return true
		}
	}
	return false
}

// progress counts the addressed nodes of a.
func (a *Analysis) progress() Progress {
	p := Progress{Key: a.Key, Label: a.Label, Total: len(a.Nodes), Remaining: []Ref{}}
	for _, n := range a.Nodes {
		ad, ok := a.Addressed[n.ID]
		switch {
		case !ok:
			p.Remaining = append(p.Remaining, n)
			continue
		case ad.Status == Skip:
			p.Skipped++
		default:
			p.Marked++
		}
		p.Done++
	}
	return p
}

func (a *Analysis) clone() *Analysis {
	c := *a
	c.Nodes = append([]Ref(nil), a.Nodes...)
	c.Addressed = make(map[string]Address, len(a.Addressed))
	for k, v := range a.Addressed {
		c.Addressed[k] = v
	}
	return &c
}

// analysis returns the analysis with key k, or nil; call with b.mu held.
func (b *Board) analysis(k string) *Analysis {
	for _, a := range b.st.Analyses {
		if a.Key == k {
			return a
		}
	}
	return nil
}

// upsertAnalysis replaces the nodes of analysis key (keeping what was
// already addressed) or adds it; call with b.mu held.
func (b *Board) upsertAnalysis(key, label, evidence string, nodes []Ref) *Analysis {
	nodes = dedupRefs(nodes)
	if a := b.analysis(key); a != nil {
		a.Label, a.Evidence, a.Nodes = label, evidence, nodes
		return a
	}
	a := &Analysis{Key: key, Label: label, Evidence: evidence, Nodes: nodes, Addressed: map[string]Address{}}
	b.st.Analyses = append(b.st.Analyses, a)
	return a
}

func dedupRefs(in []Ref) []Ref {
	seen := make(map[string]bool, len(in))
	out := make([]Ref, 0, len(in))
	for _, r := range in {
		if r.ID == "" || seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		if r.Label == "" {
			r.Label = r.ID
		}
		out = append(out, r)
	}
	return out
}

// active returns the analysis the focus points at, or nil; call with
// b.mu held.
func (b *Board) active() *Analysis {
	if b.st.Focus.Analysis == "" {
		return nil
	}
	return b.analysis(b.st.Focus.Analysis)
}
