package hooks

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/compat"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/words"
)

// symChange is one symbol an edit touched.
type symChange struct {
	what   string // added, removed, renamed, signature, body
	id     string
	before *graph.Node // nil for added
	after  *graph.Node // nil for removed
	// callers are the callers that may break (signature, removed, renamed)
	// or that see the new behaviour (body).
	callers []caller
	// overloads are the signatures callers see instead of the changed
	// implementation's (TypeScript overload signatures), after and
	// before the edit.
	overloads, oldOverloads []string
}

// caller is a call site of an edited symbol, as remembered for the Stop
// reminder.
type caller struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Path  string `json:"path"`
	Line  int    `json:"line"`            // the first call site
	Lines []int  `json:"lines,omitempty"` // every call site in Path
	Start int    `json:"start"`
	End   int    `json:"end"`
	Lang  string `json:"lang,omitempty"`
	// Guess: the call edge is only a name match (the receiver's type is
	// unknown); its sites cannot be said to break, only that they may.
	Guess bool `json:"guess,omitempty"`
}

// sites is "path:l1,l2,l3": every call site of the caller.
func (c caller) sites() string {
	if len(c.Lines) <= 1 {
		return loc(c.Path, c.Line)
	}
	ls := make([]string, len(c.Lines))
	for i, l := range c.Lines {
		ls[i] = fmt.Sprint(l)
	}
	return c.Path + ":" + strings.Join(ls, ",")
}

// diffFile compares the symbols of file rel before and after an edit.
// lc (the lines the edit added and deleted) tells which bodies changed;
// when it is unknown, a changed line span counts as a changed body.
func diffFile(before, after *graph.Graph, rel string, lc lineChanges) []symChange {
	bm, am := fileNodes(before, rel), fileNodes(after, rel)
	var out []symChange
	var removed, added []symChange
	for id, bi := range bm {
		b := before.Nodes[bi]
		ai, ok := am[id]
		if !ok {
			removed = append(removed, symChange{what: "removed", id: id, before: b})
			continue
		}
		a := after.Nodes[ai]
		switch {
		case normSig(a.Signature) != normSig(b.Signature):
			out = append(out, symChange{what: "signature", id: id, before: b, after: a, overloads: overloadSigs(after, id), oldOverloads: overloadSigs(before, id)})
		case touched(a, b, lc):
			out = append(out, symChange{what: "body", id: id, before: b, after: a})
		}
	}
	for id, ai := range am {
		if _, ok := bm[id]; !ok {
			added = append(added, symChange{what: "added", id: id, after: after.Nodes[ai]})
		}
	}
	sortChanges(removed)
	sortChanges(added)
	// A removal and an addition of the same kind whose signatures match
	// once the names are swapped is a rename.
	used := map[int]bool{}
	for ri := range removed {
		r := &removed[ri]
		for ai := range added {
			a := added[ai]
			if used[ai] || a.after.Kind != r.before.Kind || parentQual(a.after.Qual) != parentQual(r.before.Qual) {
				continue
			}
			if strings.ReplaceAll(normSig(r.before.Signature), r.before.Name, a.after.Name) == normSig(a.after.Signature) {
				used[ai] = true
				r.what, r.after = "renamed", a.after
				break
			}
		}
	}
	out = append(out, removed...)
	for ai, a := range added {
		if !used[ai] {
			out = append(out, a)
		}
	}
	out = innermostBodies(out)
	sortChanges(out)
	return out
}

func sortChanges(cs []symChange) {
	rank := map[string]int{"removed": 0, "renamed": 1, "signature": 2, "body": 3, "added": 4}
	sort.SliceStable(cs, func(i, j int) bool {
		if rank[cs[i].what] != rank[cs[j].what] {
			return rank[cs[i].what] < rank[cs[j].what]
		}
		return cs[i].id < cs[j].id
	})
}

// innermostBodies drops a body change of a symbol when a symbol nested in
// it changed too (the class of an edited method says nothing more).
func innermostBodies(cs []symChange) []symChange {
	var out []symChange
	for i, c := range cs {
		if c.what == "body" {
			inner := false
			for j, d := range cs {
				if i != j && d.after != nil && strings.HasPrefix(d.id, c.id+".") {
					inner = true
					break
				}
			}
			if inner {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func parentQual(q string) string {
	if i := strings.LastIndex(q, "."); i >= 0 {
		return q[:i]
	}
	return ""
}

// normSig ignores whitespace differences in signatures.
func normSig(s string) string { return strings.Join(strings.Fields(s), " ") }

// touched reports whether the edit added a line inside the symbol's new
// range or deleted one inside its old range (context lines of a patch do
// not count). Without line information a changed span counts.
func touched(a, b *graph.Node, lc lineChanges) bool {
	if !lc.known {
		return a.EndLine-a.StartLine != b.EndLine-b.StartLine
	}
	return lc.inNew(a.StartLine, a.EndLine) || lc.inOld(b.StartLine, b.EndLine)
}

// fileNodes maps the ids of the classes and named functions of file rel
// to their indexes.
func fileNodes(g *graph.Graph, rel string) map[string]int {
	m := map[string]int{}
	if g == nil {
		return m
	}
	for _, i := range g.InFile(rel) {
		// Anonymous functions are named by position: an edit is a
		// change of the named function holding them, never of them.
		if n := g.Nodes[i]; n.Kind != graph.Module && !n.Anonymous() {
			m[g.Nodes[i].ID] = i
		}
	}
	return m
}

// callersOf lists the call sites of node id: from the graph after the edit
// when the symbol still exists there (fresh lines), else from before.
func callersOf(before, after *graph.Graph, id, rel string) []caller {
	g := after
	i, ok := after.Index(id)
	if !ok {
		g = before
		if i, ok = before.Index(id); !ok {
			return nil
		}
	}
	var out []caller
	for _, nb := range g.Neighbors(i, graph.In, graph.Filter{}) {
		n := g.Nodes[nb.Node]
		c := caller{ID: n.ID, Label: label(n), Path: nb.Path, Start: n.StartLine, End: n.EndLine,
			Lines: append([]int(nil), nb.Lines...), Lang: n.Lang, Guess: nb.Confidence == graph.NameMatch}
		// A caller in the edited file may have moved: its call sites move
		// with it (exact unless the edit changed lines above them inside it).
		if g == before && n.Path == rel {
			j, ok := after.Index(n.ID)
			if !ok {
				continue // removed by the same edit
			}
			m := after.Nodes[j]
			shift := m.StartLine - n.StartLine
			for k := range c.Lines {
				c.Lines[k] += shift
			}
			c.Path, c.Start, c.End = m.Path, m.StartLine, m.EndLine
		}
		if len(c.Lines) > 0 {
			c.Line = c.Lines[0]
		}
		out = append(out, c)
	}
	return out
}

// recursiveCalls is the function id calling itself, as a caller of its
// own (its call sites break with a signature change like any other), from
// the graph after the edit.
func recursiveCalls(after *graph.Graph, id string) []caller {
	i, ok := after.Index(id)
	if !ok {
		return nil
	}
	n := after.Nodes[i]
	var lines []int
	for _, ei := range after.In(i) {
		e := after.Edge(ei)
		if e.Type != graph.Call || e.Confidence <= graph.NameMatch {
			continue
		}
		// a call in a callback of the function is its own too:
		// each(value, (k, v) => currentImpl(v)) inside currentImpl
		from := e.From
		for from != i && from >= 0 && after.Nodes[from].Anonymous() {
			from = after.Parent(from)
		}
		if from == i {
			lines = append(lines, e.Lines...)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	sort.Ints(lines)
	return []caller{{ID: n.ID, Label: label(n), Path: n.Path, Start: n.StartLine, End: n.EndLine,
		Lines: lines, Line: lines[0], Lang: n.Lang}}
}

func siteList(cs []caller, max int) string {
	var items []string
	for i, c := range cs {
		if i == max {
			items = append(items, fmt.Sprintf("+%d more", len(cs)-max))
			break
		}
		items = append(items, c.sites()+" "+c.Label)
	}
	return strings.Join(items, "; ")
}

func callerFileCount(cs []caller) int {
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Path] = true
	}
	return len(seen)
}

func (e *Engine) afterEdit(ctx context.Context, ev *Event) outcome {
	files := ev.editedFiles()
	if len(files) == 0 {
		return outcome{reason: "edit without a file path"}
	}
	if ev.Failed() {
		return outcome{reason: "edit failed"}
	}
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "no workspace for " + abs(files[0].path, ev.Cwd)}
	}
	// A patch may touch several files: those in the workspace count.
	var paths, rels []string
	var lines []func([]byte) lineChanges
	for _, f := range files {
		p := abs(f.path, ev.Cwd)
		if r := rel(root, p); p != "" && r != "" {
			paths, rels, lines = append(paths, p), append(rels, r), append(lines, f.lines)
		}
	}
	if len(paths) == 0 {
		return outcome{reason: "edit outside the workspace " + root}
	}
	auto := e.announce(ev, root)
	out := outcome{root: root}
	if auto != "" {
		out.kind, out.text, out.exempt = "auto-init", auto, true
	}
	before, after, err := e.host.Apply(ctx, root, paths)
	if err != nil {
		out.reason = "update failed: " + err.Error()
		return out
	}
	if before == nil || after == nil {
		out.reason = "graph not ready"
		return out
	}
	// The watcher may have applied the edit already, or part of it (a
	// truncated file in the middle of a save): diff against the graph
	// before the burst of updates the edit caused. Either way the edit is
	// now accounted for.
	if g := e.recent.take(root, rels, e.now()); g != nil {
		before = g
	}
	sites := newSiteReader(root)
	defer sites.close()
	// The recording is asked for once, and only when a file changed.
	runs := sync.OnceValue(func() graph.TestRuns {
		if v, ok := e.host.View(root); ok {
			return v.Runs
		}
		return nil
	})
	var texts, ids []string
	changed := false
	for i, p := range paths {
		current, _ := os.ReadFile(p)
		changes := diffFile(before, after, rels[i], lines[i](current))
		if len(changes) == 0 {
			continue
		}
		changed = true
		text, risky := editCard(before, after, rels[i], changes, e.pol.CardMax, sites, runs())
		if len(risky) > 0 {
			e.withSession(ev, func(s *session) {
				for _, c := range risky {
					c.Root = root
					s.Edited[root+"|"+c.Target] = c
					delete(s.Reminded, root+"|"+c.Target)
				}
			})
		}
		if text != "" {
			texts = append(texts, text)
			continue
		}
		for _, c := range changes {
			ids = append(ids, c.what+" "+c.id)
		}
	}
	if !changed {
		out.reason = "no symbol changed"
		return out
	}
	if len(texts) == 0 {
		out.reason = "edit changed nothing with callers or tests: " + joinMax(ids, 5)
		return out
	}
	text := strings.Join(texts, "\n")
	if auto != "" {
		text = auto + "\n" + text
	}
	out.kind, out.text, out.exempt = "edit", words.CutBytes(text, e.pol.CardMax), false
	return out
}

// recordedAgo is ", recorded 2h ago" for a recording that says when it
// was made, else "".
func recordedAgo(runs graph.TestRuns) string {
	if r, ok := runs.(interface{ RecordedAt() time.Time }); ok && !r.RecordedAt().IsZero() {
		return ", recorded " + words.Age(time.Since(r.RecordedAt())) + " ago"
	}
	return ""
}

// riskyEdit is an edit the Stop reminder follows up: a changed signature,
// a removal or a rename, with the callers it may break.
type riskyEdit = edited

// editCard says what an edit changed, which callers may break and which
// tests to run (those a recording saw running the changed code when runs
// knows it, see graph.TestsOf). It returns "" when nothing changed that
// has callers or tests, and the risky edits to remember.
func editCard(before, after *graph.Graph, rel string, changes []symChange, max int, sites *siteReader, runs graph.TestRuns) (string, []riskyEdit) {
	var lines []string
	var risky []riskyEdit
	var testIDs []string
	seenTest := map[string]bool{}
	searchCut := false // a test search stopped at its budget
	searched, recorded := 0, 0
	addTests := func(id string) {
		g := before
		i, ok := before.Index(id)
		if !ok {
			return
		}
		tr := g.TestsOf(i, graph.Filter{Runs: runs}, 0)
		searchCut = searchCut || !tr.Complete
		searched++
		if tr.Ran != nil {
			recorded++
		}
		for _, t := range tr.Tests {
			tid := g.Nodes[t].ID
			if !seenTest[tid] {
				seenTest[tid] = true
				testIDs = append(testIDs, tid)
			}
		}
	}
	var headline, next string
	var added []string
	var bodies []string
	fitCallers := false // a compatible signature change has call sites
	for _, c := range changes {
		switch c.what {
		case "removed", "renamed", "signature":
			cs := callersOf(before, after, c.id, rel)
			addTests(c.id)
			name := label(c.before)
			var l string
			switch c.what {
			case "removed":
				if len(cs) == 0 {
					l = "Removed " + name + " (no callers left)."
				} else {
					l = fmt.Sprintf("REMOVED %s but it is still called: %s — these calls now fail.", name, siteList(cs, 4))
				}
			case "renamed":
				if len(cs) == 0 {
					l = fmt.Sprintf("Renamed %s → %s (no callers).", name, label(c.after))
				} else {
					l = fmt.Sprintf("RENAMED %s → %s but callers still use the old name: %s.", name, label(c.after), siteList(cs, 4))
				}
			case "signature":
				cs = append(cs, recursiveCalls(after, c.id)...)
				// (as signatureCallers: the card and CheckSignatureChange agree)
				var compatible bool
				callers := len(cs)
				l, cs, compatible = signatureLines(c, cs, sites)
				if compatible {
					lines = append(lines, l)
					// Callers that still fit are worth a line: the
					// agent need not check them.
					fitCallers = fitCallers || callers > 0
					continue
				}
			}
			lines = append(lines, l)
			if len(cs) > 0 {
				risky = append(risky, riskyEdit{Root: "", Label: name, What: c.what, Target: c.id, Callers: cs})
				if next == "" {
					next = fmt.Sprintf("update the %s of %s", words.Count(len(cs), "caller", "callers"), name)
				}
			}
			if headline == "" {
				headline = c.what
			}
		case "body":
			cs := callersOf(before, after, c.id, rel)
			addTests(c.id)
			if len(cs) > 0 {
				bodies = append(bodies, fmt.Sprintf("%s (%s)", label(c.after), words.Count(len(cs), "caller", "callers")))
			} else {
				bodies = append(bodies, label(c.after))
			}
		case "added":
			added = append(added, label(c.after))
		}
	}
	if len(bodies) > 0 {
		lines = append(lines, "Body changed: "+joinMax(bodies, 5)+".")
	}
	if len(added) > 0 {
		lines = append(lines, "Added: "+joinMax(added, 5)+".")
	}
	var tests []int
	for _, id := range testIDs {
		if i, ok := after.Index(id); ok {
			tests = append(tests, i)
		}
	}
	cmd := testCommand(after, tests)
	if len(risky) == 0 && len(tests) == 0 {
		// Only bodies without tests, or additions: nothing actionable
		// unless callers see the change.
		hasCallers := fitCallers
		for _, b := range bodies {
			if strings.Contains(b, "caller") {
				hasCallers = true
			}
		}
		if !hasCallers {
			return "", nil
		}
	}
	// Every changed symbol's tests come from the recording.
	fromRecording := searched > 0 && recorded == searched
	if cmd != "" {
		if fromRecording {
			lines = append(lines, "Tests to run (seen running it"+recordedAgo(runs)+"): "+cmd)
		} else {
			lines = append(lines, "Tests to run: "+cmd)
		}
		if next == "" {
			next = "run " + cmd
		} else {
			next += ", then run " + cmd
		}
	} else if searchCut {
		if next == "" {
			next = "no test was found within " + fmt.Sprint(graph.TestBudget) + " callers (the search stopped there); check the callers above by hand"
		} else {
			next += "; no test was found within the search budget"
		}
	} else if fromRecording {
		// No test ran the changed code: say where that comes from.
		if next == "" {
			next = "no test ran the changed code when the suite was recorded (ccd tests record); check the callers above by hand or add a test"
		} else {
			next += "; no test ran the changed code when the suite was recorded"
		}
	} else if next == "" {
		next = "no test reaches the changed code; check the callers above by hand or add a test"
	} else {
		next += "; no test reaches the changed code"
	}
	c := card{head: "[ccd edit] " + rel + ":", body: lines, next: next + "."}
	return c.fit(max), risky
}

// signatureLines describes a signature change and checks every call site
// against the new signature: the call sites that will break (and why),
// those that cannot be checked, and how many still fit. It returns the
// callers to follow up (those with a site that breaks or cannot be
// checked) and whether the change is compatible with every call site.
// Where the language's signatures cannot be read, every caller may break.
func signatureLines(c symChange, cs []caller, sites *siteReader) (string, []caller, bool) {
	name := label(c.before)
	what := compat.Describe(compat.Parse(c.after.Lang, c.before.Signature), compat.Parse(c.after.Lang, c.after.Signature))
	head := "Signature of " + name + " changed"
	if what != "" {
		head += " (" + what + ")"
	}
	vs, ok := checkSites(sites, c.before, c.after, cs, c.overloads, c.oldOverloads)
	if !ok {
		l := fmt.Sprintf("%s:\n  was: %s\n  now: %s", head, normSig(c.before.Signature), normSig(c.after.Signature))
		if len(cs) > 0 {
			l += fmt.Sprintf("\nMay break %s in %s: %s", words.Count(len(cs), "caller", "callers"), words.Count(callerFileCount(cs), "file", "files"), siteList(cs, 5))
		}
		return l, cs, false
	}
	var breaks, unknown []siteVerdict
	fit := 0
	follow := map[string]bool{}
	for _, v := range vs {
		switch v.verdict {
		case compat.Breaks:
			breaks = append(breaks, v)
			follow[v.c.ID] = true
		case compat.Unknown:
			unknown = append(unknown, v)
			follow[v.c.ID] = true
		default:
			fit++
		}
	}
	if len(breaks) == 0 && len(unknown) == 0 {
		if len(vs) == 0 {
			return fmt.Sprintf("%s, compatibly: no call site.", head), nil, true
		}
		return fmt.Sprintf("%s, compatibly: all %s in %s still fit.", head, words.Count(len(vs), "call site", "call sites"), words.Count(len(cs), "caller", "callers")), nil, true
	}
	l := fmt.Sprintf("%s:\n  was: %s\n  now: %s", head, normSig(c.before.Signature), normSig(c.after.Signature))
	// list names the sites by reason: "  why: a.go:4,5 f; b.go:9 g" (the
	// sites of one caller together), at most max sites a reason, then
	// "+N more".
	list := func(vs []siteVerdict, max int) {
		type group struct {
			why     string
			callers []*caller
			by      map[string]*caller
			n       int
		}
		var gs []*group
		byWhy := map[string]*group{}
		for _, v := range vs {
			g := byWhy[v.why]
			if g == nil {
				g = &group{why: v.why, by: map[string]*caller{}}
				byWhy[v.why] = g
				gs = append(gs, g)
			}
			c := g.by[v.c.ID]
			if c == nil {
				cc := v.c
				cc.Lines = nil
				c = &cc
				g.by[v.c.ID] = c
				g.callers = append(g.callers, c)
			}
			c.Lines = append(c.Lines, v.line)
			c.Line = c.Lines[0]
			g.n++
		}
		for _, g := range gs {
			var items []string
			shown := 0
			for _, c := range g.callers {
				if shown >= max {
					break
				}
				items = append(items, c.sites()+" "+c.Label)
				shown += len(c.Lines)
			}
			more := ""
			if g.n > shown {
				more = fmt.Sprintf("; +%d more", g.n-shown)
			}
			l += fmt.Sprintf("\n  %s: %s%s", g.why, strings.Join(items, "; "), more)
		}
	}
	if len(breaks) > 0 {
		l += fmt.Sprintf("\nWill break %d of %s:", len(breaks), words.Count(len(vs), "call site", "call sites"))
		list(breaks, 4)
	}
	if len(unknown) > 0 {
		l += fmt.Sprintf("\nCannot check %s:", words.Count(len(unknown), "call site", "call sites"))
		list(unknown, 2)
	}
	if fit > 0 {
		l += fmt.Sprintf("\n%s still fit.", words.Count(fit, "other call site", "other call sites"))
	}
	var out []caller
	for _, c := range cs {
		if follow[c.ID] {
			out = append(out, c)
		}
	}
	return l, out, false
}

func joinMax(xs []string, max int) string {
	if len(xs) > max {
		return strings.Join(xs[:max], ", ") + fmt.Sprintf(", +%d more", len(xs)-max)
	}
	return strings.Join(xs, ", ")
}
