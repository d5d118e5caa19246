package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/words"
)

// workspace is the graph and board an action works on.
type workspace struct {
	g    *graph.Graph
	meta Meta
	b    *board.Board
}

// open finds the workspace of an action (see rootFor) without indexing.
func (c *canvas) open(ctx context.Context, a args) (*workspace, *toolError) {
	root, terr := c.rootFor(a)
	if terr != nil {
		return nil, terr
	}
	g, meta, err := c.h.Graph(ctx, root)
	if err != nil {
		return nil, hostError(err, root)
	}
	if g == nil {
		return nil, &toolError{msg: "Not initialized: " + root + " has no graph yet.", hint: `run canvas(action="init") first`}
	}
	b, err := c.h.Board(meta.Root)
	if err != nil {
		return nil, hostError(fmt.Errorf("board of %s: %w", meta.Root, err), meta.Root)
	}
	if a.RepoPath != "" {
		c.remember(meta.Root)
	}
	return &workspace{g: g, meta: meta, b: b}, nil
}

// save persists the board; a failure becomes a note, not an error: the
// action happened and the board keeps it in memory.
func (c *canvas) save(w *workspace, r *response) {
	if err := c.h.SaveBoard(w.meta.Root, w.b); err != nil {
		c.opt.log.Error("save board", "root", w.meta.Root, "err", err)
		r.notes = append(r.notes, fmt.Sprintf("Note: the board could not be saved (%v); it is kept in memory.", err))
	}
}

// picture asks the host for one picture and attaches it; a failure
// becomes a note.
func (c *canvas) picture(ctx context.Context, root string, r *response, req PictureRequest) {
	png, err := c.h.Picture(ctx, root, req)
	if err != nil || len(png) == 0 {
		if err == nil {
			err = fmt.Errorf("empty image")
		}
		c.opt.log.Error("picture", "kind", req.Kind, "root", root, "err", err)
		r.notes = append(r.notes, fmt.Sprintf("Note: the %s picture is unavailable (%v).", req.Kind, err))
		return
	}
	r.images = append(r.images, picture{kind: req.Kind, png: png})
}

// staleNote warns when the graph lags behind the files.
func staleNote(m Meta) string {
	if m.Fresh {
		return ""
	}
	return fmt.Sprintf("Note: files changed after generation %d was built; an update is pending, so the latest edits may be missing.", m.Generation)
}

func (c *canvas) init(ctx context.Context, a args) (*response, *toolError) {
	root, terr := c.rootFor(a)
	if terr != nil {
		return nil, terr
	}
	info, err := c.h.Init(ctx, root)
	if err != nil {
		return nil, hostError(err, root)
	}
	a.RepoPath = info.Root
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	g := w.g
	langs := info.Languages
	if langs == nil {
		langs = map[string]int{}
		for _, n := range g.Nodes {
			if n.Kind == graph.Module && n.Lang != "" {
				langs[n.Lang]++
			}
		}
	}
	metrics := map[string]int{
		"modules": g.Count(graph.Module), "classes": g.Count(graph.Class), "funcs": g.Count(graph.Func),
		"files": info.Parsed, "call_edges": g.CountEdges(graph.Call), "import_edges": g.CountEdges(graph.Import),
	}
	p := board.Project{Root: w.meta.Root, Name: filepath.Base(w.meta.Root), Generation: w.meta.Generation, Head: w.meta.Head,
		Files: info.Files, Parsed: info.Parsed, Languages: langs}
	ev, created, view := w.b.Init(p, metrics)
	r := &response{view: view}
	state := "fresh"
	if !w.meta.Fresh {
		state = "update pending"
	}
	r.printf("Initialized %s (%s), generation %d, %s: %s, %s, %s; %s, %s.\n", p.Name, w.meta.Root, w.meta.Generation, state,
		words.Count(metrics["modules"], "module", "modules"), words.Count(metrics["classes"], "class", "classes"), words.Count(metrics["funcs"], "func", "funcs"),
		words.Count(metrics["call_edges"], "call edge", "call edges"), words.Count(metrics["import_edges"], "import edge", "import edges"))
	r.printf("Parsed %d of %d files (%s)", info.Parsed, info.Files, langList(langs, 6))
	if info.SyntaxErrors > 0 {
		r.printf(", %d with syntax errors", info.SyntaxErrors)
		if n := len(info.ErrorFiles); n > 0 {
			shown := info.ErrorFiles[:min(n, 3)]
			r.printf(" (%s", strings.Join(shown, ", "))
			if n > len(shown) {
				r.printf(", +%d more", n-len(shown))
			}
			r.printf(")")
		}
	}
	if info.Skipped > 0 {
		r.printf(", %d skipped", info.Skipped)
	}
	r.printf(".\n")
	if hs := hubs(g, 5); len(hs) > 0 {
		parts := make([]string, len(hs))
		for i, h := range hs {
			parts[i] = fmt.Sprintf("%s (%d)", report.Label(g.Nodes[h]), callDegree(g, h))
		}
		r.printf("Most connected (call edges): %s.\n", strings.Join(parts, ", "))
	}
	if created {
		r.printf("Created %s (architecture).\n", ev.ID)
	} else {
		r.printf("Architecture unchanged since %s (generation %d); the board is kept as it was.\n", ev.ID, ev.Generation)
	}
	if n := staleNote(w.meta); n != "" {
		r.printf("%s\n", n)
	}
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureArchitecture, Evidence: ev.ID})
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

// langList renders "python 10, go 3" (most files first), at most n.
func langList(m map[string]int, n int) string { return report.Languages(m, n) }

func (c *canvas) impact(ctx context.Context, a args) (*response, *toolError) {
	if strings.TrimSpace(a.Symbol) == "" {
		return nil, c.missingSymbol(ctx, a, "impact")
	}
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	g := w.g
	i, others, terr := findSymbol(g, a.Symbol, nil)
	if terr != nil {
		return nil, terr
	}
	depth := a.depth
	im := g.Impact(i, depth, graph.Filter{Runs: w.meta.Runs})
	rep := report.NewImpact(g, im, others)
	spec := report.BoardImpact(g, im, rep, w.meta.Generation)
	target := spec.Target
	ev, created, view := w.b.AddImpact(spec)
	r := &response{view: view}
	depthText := fmt.Sprintf("depth %d", depth)
	if depth == 0 {
		depthText = "unlimited depth"
	}
	verb := "Created " + ev.ID
	if !created {
		verb = "Unchanged since " + ev.ID
	}
	r.printf("%s (impact %q): %s, %s; blast radius %s in %s (%s); %s.\n", verb, target.Label,
		words.Count(len(im.Callers), "caller", "callers"), words.Count(len(im.Callees), "callee", "callees"),
		words.Count(len(im.Upstream), "symbol", "symbols"), words.Count(len(rep.Files), "file", "files"), depthText,
		words.Count(len(im.Tests), "affected test", "affected tests"))
	if n := staleNote(w.meta); n != "" {
		r.printf("%s\n", n)
	}
	r.printf("\n")
	rep.WriteText(&r.result)
	if len(rep.Callers) > report.ListLimit || len(rep.Callees) > report.ListLimit || len(rep.BlastRadius) > report.ListLimit || len(rep.Tests) > report.ListLimit {
		r.printf("\n(Lists show %d entries each. For everything run `ccd impact --json --root %s %s` in a shell, or narrow down: a smaller depth, or impact on one of the callers.)\n",
			report.ListLimit, shellQuote(w.meta.Root), shellQuote(target.ID))
	}
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureImpact, Node: target.ID, Depth: depth, MaxNodes: a.maxNodes, Evidence: ev.ID})
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

// missingSymbol explains an action called without symbol, suggesting
// the most connected symbols when the project is known.
func (c *canvas) missingSymbol(ctx context.Context, a args, action string) *toolError {
	hint := fmt.Sprintf(`pass symbol="...", e.g. canvas(action=%q, symbol="MyClass.method")`, action)
	if w, terr := c.open(ctx, a); terr == nil {
		if hs := hubs(w.g, 3); len(hs) > 0 {
			names := make([]string, len(hs))
			for i, h := range hs {
				names[i] = report.Label(w.g.Nodes[h])
			}
			hint = fmt.Sprintf(`pass symbol="...", e.g. canvas(action=%q, symbol=%q); most connected here: %s`, action, names[0], strings.Join(names, ", "))
		}
	}
	return &toolError{msg: capitalise(action) + " needs a symbol.", hint: hint}
}

func (c *canvas) claim(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	if status, ok := board.ParseClaimStatus(a.Kind); ok {
		id, note, ok := board.SplitClaimRef(a.Text)
		if !ok {
			hint := `start text with the claim's id, e.g. text="C1: why"`
			if v := w.b.View("status"); v.OpenClaims > 0 {
				hint += fmt.Sprintf(" (%s; read lists them)", words.Count(v.OpenClaims, "open claim", "open claims"))
			}
			return nil, &toolError{msg: fmt.Sprintf("To settle a claim with kind=%s, say which one.", status), hint: hint}
		}
		cl, view, err := w.b.Resolve(id, status, note)
		if err != nil {
			return nil, fromBoardError(err)
		}
		r := &response{view: view}
		r.printf("%s [%s] is now %s: %q.\n", cl.ID, cl.Kind, cl.Status, words.Clip(cl.Text, 200))
		if cl.Resolution != "" {
			r.printf("Why: %s\n", cl.Resolution)
		}
		c.save(w, r)
		c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
		return r, nil
	}
	kind, err := board.ParseClaimKind(a.Kind)
	if err != nil {
		return nil, fromBoardError(err)
	}
	cl, view, err := w.b.Claim(kind, a.Text)
	if err != nil {
		return nil, fromBoardError(err)
	}
	r := &response{view: view}
	r.printf("Created %s [%s]%s.\n", cl.ID, cl.Kind, linked(cl.Evidence))
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

func linked(ev string) string {
	if ev == "" {
		return " (no evidence yet to link; run impact first)"
	}
	return " linked to " + ev
}

func (c *canvas) decide(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	kind, err := board.ParseDecideKind(a.Kind)
	if err != nil {
		return nil, fromBoardError(err)
	}
	var sym *board.Ref
	if strings.TrimSpace(a.Symbol) != "" {
		i, _, terr := findSymbol(w.g, a.Symbol, nil)
		if terr != nil {
			return nil, terr
		}
		ref := refOf(w.g, i)
		sym = &ref
	}
	d, view, err := w.b.Decide(kind, a.Text, sym)
	if err != nil {
		return nil, fromBoardError(err)
	}
	r := &response{view: view}
	about := ""
	if sym != nil {
		about = fmt.Sprintf(" about %q", sym.Label)
	}
	r.printf("Created %s [%s]%s%s.\n", d.ID, d.Kind, about, linked(d.Evidence))
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

func (c *canvas) mark(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	g := w.g
	snap := w.b.Snapshot()
	q := strings.TrimSpace(a.Symbol)
	viaFocus := false
	if q == "" {
		if snap.Focus.Kind != board.FocusSymbol || snap.Focus.Node == "" {
			return nil, c.missingSymbol(ctx, a, a.Action)
		}
		q, viaFocus = snap.Focus.Node, true
	}
	// Among several matches, prefer a node the active analysis (then any
	// analysis) lists, with its enclosing nodes.
	inAnalysis := func(only string) func(int) bool {
		return func(i int) bool {
			ids := append([]string{g.Nodes[i].ID}, enclosing(g, i)...)
			for _, an := range snap.Analyses {
				if only != "" && an.Key != only {
					continue
				}
				for _, n := range an.Nodes {
					for _, id := range ids {
						if n.ID == id {
							return true
						}
					}
				}
			}
			return false
		}
	}
	prefer := func(i int) bool {
		return (snap.Focus.Analysis != "" && inAnalysis(snap.Focus.Analysis)(i)) || inAnalysis("")(i)
	}
	i, _, terr := findSymbol(g, q, prefer)
	if terr != nil {
		return nil, terr
	}
	spec := board.MarkSpec{Node: refOf(g, i), Enclosing: enclosing(g, i), Text: a.Text}
	var res board.MarkResult
	var view board.View
	var err error
	if a.Action == "skip" {
		res, view, err = w.b.Skip(spec)
	} else {
		res, view, err = w.b.Mark(spec)
	}
	if err != nil {
		return nil, fromBoardError(err)
	}
	r := &response{view: view}
	verb, what := "Marked", "verified"
	if a.Action == "skip" {
		verb, what = "Skipped", "out of scope"
	}
	focus := ""
	if viaFocus {
		focus = " (the focus)"
	}
	r.printf("%s %q%s as %s (%s", verb, spec.Node.Label, focus, what, res.Decision.ID)
	if res.Decision.Evidence != "" {
		r.printf(", linked to %s", res.Decision.Evidence)
	}
	r.printf(").\n")
	switch {
	case res.Analysis == "":
		r.printf("It is not among the affected nodes of any analysis, so progress is unchanged.\n")
	case res.As.ID != spec.Node.ID:
		r.printf("Counts for %s in the analysis of %s.\n", res.As.Label, res.Analysis)
	default:
		r.printf("Counts in the analysis of %s.\n", res.Analysis)
	}
	if res.Previous != "" && res.Previous != res.Decision.Kind {
		prev := "marked"
		if res.Previous == board.Skip {
			prev = "skipped"
		}
		r.printf("It was %s before; the latest decision counts.\n", prev)
	}
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

func (c *canvas) status(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	snap := w.b.Snapshot()
	r := &response{view: w.b.View("status")}
	state := "fresh"
	if !w.meta.Fresh {
		state = "update pending"
	}
	r.printf("Evidence board of %s (graph generation %d, %s).\n", filepath.Base(w.meta.Root), w.meta.Generation, state)
	if p := r.view.Progress; p != nil {
		r.printf("Focus %s: %d/%d addressed (%d marked, %d skipped)", p.Label, p.Done, p.Total, p.Marked, p.Skipped)
		if len(p.Remaining) > 0 {
			r.printf("; remaining: %s", refNames(p.Remaining, 8))
		}
		r.printf(".\n")
	}
	var open []string
	for _, cl := range snap.Claims {
		if cl.Status == board.Open {
			open = append(open, fmt.Sprintf("%s [%s] %s", cl.ID, cl.Kind, words.Clip(cl.Text, 100)))
		}
	}
	if len(open) > 0 {
		r.printf("Open claims (%d):\n", len(open))
		start := max(0, len(open)-5)
		if start > 0 {
			r.printf("  … %d older\n", start)
		}
		for _, o := range open[start:] {
			r.printf("  %s\n", o)
		}
	}
	if snap.ActiveTask != "" {
		for _, t := range snap.Tasks {
			if t.ID == snap.ActiveTask {
				r.printf("Task %s: %s\n", t.ID, words.Clip(t.Title, 120))
			}
		}
	}
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

func (c *canvas) read(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	snap := w.b.Snapshot()
	r := &response{view: w.b.View("read")}
	snap.WriteText(&r.result, readLimit)
	return r, nil
}

// readLimit is how many of the newest items per section read shows.
const readLimit = 30

func refNames(rs []board.Ref, n int) string {
	var parts []string
	for i, r := range rs {
		if i == n {
			parts = append(parts, fmt.Sprintf("+%d more", len(rs)-n))
			break
		}
		parts = append(parts, r.Label)
	}
	return strings.Join(parts, ", ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
