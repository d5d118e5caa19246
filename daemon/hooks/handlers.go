package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/words"
)

// initRetry is how often a session retries initialising a root whose index
// failed (an empty clone target that may have files by now).
const initRetry = 5 * time.Second

// armedText is the SessionStart line when no project is in sight yet.
const armedText = "[ccd] AutoContext armed: no project here yet. ccd indexes the workspace as soon as you open, search or clone one; nothing to do meanwhile."

func (e *Engine) sessionStart(ev *Event) outcome {
	if ev.Source == "compact" || ev.Source == "clear" {
		// The context was emptied (with or without a PreCompact first):
		// every card is new to the model again.
		e.withSession(ev, func(s *session) {
			s.Cards, s.Cool = map[string]time.Time{}, map[string]time.Time{}
		})
	}
	root := e.locate(ev.Cwd)
	if root == "" {
		root = e.locate(ev.ProjectDir)
	}
	if root == "" {
		return outcome{kind: "armed", text: armedText, exempt: true, reason: "no marker-backed root in cwd or CLAUDE_PROJECT_DIR"}
	}
	v, err := e.host.Init(root)
	if err != nil {
		return outcome{kind: "armed", root: root, text: armedText, exempt: true, reason: "init refused: " + err.Error()}
	}
	if v.State == "failed" {
		return outcome{kind: "armed", root: root, text: armedText, exempt: true, reason: "init failed: " + v.Error}
	}
	e.withSession(ev, func(s *session) {
		s.Active = root
		s.Announced[root] = true
	})
	c := card{head: "[ccd] Workspace " + root}
	if v.Graph != nil && v.State == "ready" {
		c.head += ": " + overview(v.Graph, v.Files, v.Languages) + "."
		if hs := hubs(v.Graph, 3); len(hs) > 0 {
			c.body = append(c.body, "Hubs: "+strings.Join(hs, ", "))
		}
	} else {
		c.head += ": " + progress(v) + "."
	}
	if v.LSP != "" {
		c.body = append(c.body, v.LSP)
	}
	b := e.host.Board(root)
	if b.Summary != "" {
		c.body = append(c.body, b.Summary)
		c.body = append(c.body, b.Lines...)
		c.next = "carry on from the board: address its open claims, or record what you learn with canvas action=claim/decide."
	} else {
		c.next = "before changing a function, check its callers: canvas action=impact (MCP) or `ccd impact NAME`; ccd also adds callers and tests after your reads and edits."
	}
	return outcome{kind: "orientation", root: root, text: c.fit(e.pol.CardMax), exempt: true, reason: "source=" + ev.Source}
}

// progress describes an index in flight.
func progress(v View) string {
	if v.Total > 0 {
		return fmt.Sprintf("indexing in the background (%s %s/%s files); cards follow once it is ready",
			v.Phase, thousands(v.Done), thousands(v.Total))
	}
	return "indexing in the background; cards follow once it is ready"
}

// announce starts root's index when this session has not seen it yet and
// returns the AUTO-INIT line (once per root per session).
func (e *Engine) announce(ev *Event, root string) string {
	var seen bool
	var last time.Time
	e.peekSession(ev, func(s *session) {
		seen = s.Announced[root]
		last = s.Cool["init|"+root]
	})
	if seen {
		if _, held := e.host.View(root); !held {
			// Announced to this session by a daemon that has since
			// restarted (idle exit, upgrade): register the root again,
			// quietly, so the session's cards go on.
			e.host.Init(root)
		}
		return ""
	}
	if e.now().Sub(last) < initRetry {
		return ""
	}
	if !inProject(ev, root) {
		// A tree outside the session's project (a module cache, GOROOT,
		// site-packages, another checkout the agent peeks into) is
		// never registered from a hook, nor made the session's
		// workspace: ccd writes nothing there. Cards still come for it
		// when someone registered it (ccd init).
		return ""
	}
	v, err := e.host.Init(root)
	ok := err == nil && v.State != "failed"
	e.withSession(ev, func(s *session) {
		if ok {
			s.Announced[root] = true
			s.Active = root
		} else {
			s.Cool["init|"+root] = e.now()
		}
	})
	if !ok {
		return ""
	}
	line := "[ccd AUTO-INIT] root=" + root + ": "
	if v.Graph != nil && v.State == "ready" {
		line += overview(v.Graph, v.Files, v.Languages) + ". ccd now adds callers and tests after your reads and edits."
	} else {
		line += progress(v) + "."
	}
	return line
}

func (e *Engine) preTool(ctx context.Context, ev *Event) outcome {
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "no workspace"}
	}
	out := outcome{root: root}
	switch ev.Tool {
	case "Read", "Edit", "MultiEdit", "Write":
		// Agents read a file before they edit it: have its syntax tree
		// ready, so the edit reparses only what changed.
		if p := ev.FilePath(); p != "" {
			e.host.Prepare(root, p)
		}
	}
	if ev.dialect != nil && ev.dialect.searchAfter {
		// The agent drops what is said before the tool runs: the AUTO-INIT
		// line and the search card come with the tool's result.
		out.reason = "context before a tool is dropped by " + ev.Agent
		return out
	}
	return e.announceAndSearch(ev, root, searchID(ev))
}

// announceAndSearch is the AUTO-INIT line of a root this session has not
// seen, and the search card of id ("" for none), joined.
func (e *Engine) announceAndSearch(ev *Event, root, id string) outcome {
	out := outcome{root: root}
	var parts []string
	if line := e.announce(ev, root); line != "" {
		parts = append(parts, line)
		out.kind, out.exempt = "auto-init", true
	}
	if id != "" {
		if text, cool := e.searchCard(root, id); text != "" {
			parts = append(parts, text)
			out.kind, out.cool, out.exempt = "search", cool, false
		} else {
			out.reason = "search for " + id + ": not a known symbol"
		}
	}
	if len(parts) == 0 {
		if out.reason == "" {
			out.reason = "nothing to add"
		}
		return out
	}
	out.text = words.CutBytes(strings.Join(parts, "\n"), e.pol.CardMax)
	return out
}

// searchID is the identifier a search tool looks for, "" for none.
func searchID(ev *Event) string {
	switch ev.Tool {
	case "Grep":
		return SearchIdent(ev.InputStr("pattern"))
	case "Glob":
		return GlobIdent(ev.InputStr("pattern"))
	case "Bash":
		return BashSearch(ev.InputStr("command"))
	}
	return ""
}

// afterSearch is the search card given with a search's result, for
// agents that drop what a hook says before the tool runs.
func (e *Engine) afterSearch(ev *Event, id string) outcome {
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "no workspace"}
	}
	return e.announceAndSearch(ev, root, id)
}

// searchCard says where a searched identifier is defined and how many
// callers it has.
func (e *Engine) searchCard(root, id string) (string, string) {
	v, ok := e.host.View(root)
	if !ok || v.Graph == nil {
		return "", ""
	}
	g := v.Graph
	var defs []int
	for _, i := range g.Find(id) {
		n := g.Nodes[i]
		if n.Name == id || n.Qual == id || strings.HasSuffix(n.Qual, "."+id) {
			defs = append(defs, i)
		}
	}
	if len(defs) == 0 {
		return "", ""
	}
	first := defs[0]
	n := g.Nodes[first]
	callers := g.Neighbors(first, graph.In, graph.Filter{})
	c := card{head: fmt.Sprintf("[ccd search] %s is defined at %s (%s %s, %s, %s).", id, loc(n.Path, n.StartLine),
		n.Kind, label(n), words.Count(len(callers), "caller", "callers"), words.Count(len(g.TestsOf(first, graph.Filter{Runs: v.Runs}, 0).Tests), "test", "tests"))}
	if len(callers) > 0 {
		c.body = append(c.body, "Callers: "+callerList(g, callers, true, 4))
	}
	if len(defs) > 1 {
		var more []string
		for j, d := range defs[1:] {
			if j == 3 {
				more = append(more, fmt.Sprintf("+%d more", len(defs)-4))
				break
			}
			m := g.Nodes[d]
			more = append(more, fmt.Sprintf("%s %s (%s)", loc(m.Path, m.StartLine), label(m),
				words.Count(len(g.Neighbors(d, graph.In, graph.Filter{})), "caller", "callers")))
		}
		c.body = append(c.body, "Also defined: "+strings.Join(more, "; "))
	}
	c.next = fmt.Sprintf("Read %s from line %d for the definition.", n.Path, n.StartLine)
	return c.fit(e.pol.CardMax), root + "|search|" + n.ID
}

func (e *Engine) postTool(ctx context.Context, ev *Event) outcome {
	if ev.dialect != nil && ev.dialect.searchAfter && !ev.Failed() {
		if id := searchID(ev); id != "" {
			return e.afterSearch(ev, id)
		}
	}
	switch ev.Tool {
	case "Read":
		return e.afterRead(ev)
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return e.afterEdit(ctx, ev)
	case "Bash":
		return e.afterBash(ev)
	}
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "no workspace"}
	}
	if line := e.announce(ev, root); line != "" {
		return outcome{kind: "auto-init", root: root, text: line, exempt: true}
	}
	return outcome{root: root, reason: "tool " + ev.Tool + ": nothing to add"}
}

// dirHint is the guidance given when Read fails on a directory: find the
// files first, then Read one.
const dirHint = "[ccd] Read target is a directory; use Glob or `ls` to find files, then Read one. ccd indexes the project on the first file you open."

func isDirError(ev *Event) bool {
	msg := strings.ToLower(ev.Error)
	if s, ok := ev.Response.(string); ok {
		msg += " " + strings.ToLower(s)
	}
	if strings.Contains(msg, "directory") || strings.Contains(msg, "eisdir") {
		return true
	}
	p := abs(ev.FilePath(), ev.Cwd)
	if p == "" {
		return false
	}
	fi, err := statDir(p)
	return err == nil && fi
}

func (e *Engine) postToolFailure(ev *Event) outcome {
	if ev.Tool == "Read" && isDirError(ev) {
		return outcome{kind: "dir-hint", text: dirHint, reason: "read of a directory"}
	}
	return outcome{reason: "failure of " + ev.Tool + ": nothing to add"}
}

func (e *Engine) afterRead(ev *Event) outcome {
	p := abs(ev.FilePath(), ev.Cwd)
	if p == "" {
		return outcome{reason: "read without a file path"}
	}
	if ev.Failed() {
		if isDirError(ev) {
			return outcome{kind: "dir-hint", text: dirHint, reason: "read of a directory"}
		}
		return outcome{reason: "read failed"}
	}
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "no workspace for " + p}
	}
	auto := e.announce(ev, root)
	r := rel(root, p)
	from, to := ev.ReadRange()
	e.withSession(ev, func(s *session) {
		key := root + "|" + r
		s.Read[key] = append(s.Read[key], [2]int{from, to})
		if len(s.Read[key]) > 32 {
			s.Read[key] = s.Read[key][len(s.Read[key])-32:]
		}
	})
	out := outcome{root: root}
	if auto != "" {
		out.kind, out.text, out.exempt = "auto-init", auto, true
	}
	v, ok := e.host.View(root)
	if !ok || v.Graph == nil {
		out.reason = "graph not ready"
		return out
	}
	g := v.Graph
	if _, ok := g.Index(r); !ok {
		out.reason = "not a code file of the graph: " + r
		return out
	}
	best, ok := g.BestAt(r, from, to)
	if !ok {
		out.reason = "no symbol in the read range"
		return out
	}
	text := impactCard(g, best, e.pol.CardMax, v.Runs)
	if text == "" {
		out.reason = "symbol has no callers or callees"
		return out
	}
	if auto != "" {
		text = words.CutBytes(auto+"\n"+text, e.pol.CardMax)
	}
	out.kind, out.text, out.exempt = "impact", text, false
	out.cool = root + "|" + r + "|" + g.Nodes[best].ID
	e.host.SaveImpact(root, g.Nodes[best].ID)
	return out
}

// impactCard is the blast radius of node i, or "" when it has no callers
// and no callees; its tests are those runs saw running i when it knows i.
func impactCard(g *graph.Graph, i, max int, runs graph.TestRuns) string {
	callers := g.Neighbors(i, graph.In, graph.Filter{})
	callees := g.Neighbors(i, graph.Out, graph.Filter{})
	if len(callers) == 0 && len(callees) == 0 {
		return ""
	}
	n := g.Nodes[i]
	tests := g.TestsOf(i, graph.Filter{Runs: runs}, 0).Tests
	head := fmt.Sprintf("[ccd impact] %s — %s (%s; %s", label(n), loc(n.Path, n.StartLine), n.Kind, words.Count(len(callers), "caller", "callers"))
	if f := callerFiles(callers); f > 1 {
		head += fmt.Sprintf(" in %d files", f)
	}
	head += fmt.Sprintf(", %s, %s)", words.Count(len(callees), "callee", "callees"), words.Count(len(tests), "test", "tests"))
	c := card{head: head}
	if len(callers) > 0 {
		c.body = append(c.body, "Callers: "+callerList(g, callers, true, 5))
	}
	if len(callees) > 0 {
		c.body = append(c.body, "Callees: "+callerList(g, callees, false, 5))
	}
	if len(tests) > 0 {
		c.body = append(c.body, "Tests: "+testNames(g, tests, 4))
	}
	switch {
	case len(callers) > 0 && len(tests) > 0:
		c.next = fmt.Sprintf("if you change %s's signature or behaviour, check the %s above, then run: %s",
			n.Name, words.Count(len(callers), "caller", "callers"), testCommand(g, tests))
	case len(callers) > 0:
		c.next = fmt.Sprintf("if you change %s's signature or behaviour, check the %s above; no test reaches it.",
			n.Name, words.Count(len(callers), "caller", "callers"))
	default:
		c.next = fmt.Sprintf("%s has no callers in the workspace; an entry point, or dead code.", n.Name)
	}
	return c.fit(max)
}

func (e *Engine) afterBash(ev *Event) outcome {
	sub, cloneDir := gitCommand(ev.InputStr("command"))
	if sub == "" {
		root, _ := e.rootFor(ev)
		if root != "" {
			if line := e.announce(ev, root); line != "" {
				return outcome{kind: "auto-init", root: root, text: line, exempt: true}
			}
		}
		return outcome{root: root, reason: "bash: nothing to add"}
	}
	if sub == "clone" {
		dir := abs(cloneDir, ev.Cwd)
		root := FindRoot(dir)
		if root == "" || !strings.HasPrefix(dir+"/", root+"/") {
			return outcome{reason: "clone target " + dir + " is not a project (yet)"}
		}
		line := e.announce(ev, root)
		e.withSession(ev, func(s *session) { s.Active = root })
		if line == "" {
			return outcome{root: root, reason: "cloned into a known workspace"}
		}
		return outcome{kind: "auto-init", root: root, text: line, exempt: true, reason: "git clone"}
	}
	root, _ := e.rootFor(ev)
	if root == "" {
		return outcome{reason: "git " + sub + " outside a workspace"}
	}
	if _, ok := e.host.View(root); ok {
		e.host.Rescan(root)
		return outcome{root: root, reason: "git " + sub + ": rescan"}
	}
	if line := e.announce(ev, root); line != "" {
		return outcome{kind: "auto-init", root: root, text: line, exempt: true}
	}
	return outcome{root: root, reason: "git " + sub}
}

func (e *Engine) preCompact(ev *Event) outcome {
	root, _ := e.rootFor(ev)
	if root != "" {
		e.host.SnapshotBoard(root)
	}
	// Compaction takes the cards out of the model's context: what was
	// shown is new again (the orientation card that follows above all).
	e.withSession(ev, func(s *session) {
		s.Cards, s.Cool = map[string]time.Time{}, map[string]time.Time{}
	})
	e.sess.flush()
	return outcome{root: root, reason: "board snapshot"}
}

func statDir(p string) (bool, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}

// inProject reports whether root belongs to the session's project: it is
// inside the project directory (CLAUDE_PROJECT_DIR, else the session's
// working directory) or holds it (a repository root above a package the
// session works in). Without either, any root does.
func inProject(ev *Event, root string) bool {
	project := ev.ProjectDir
	if project == "" {
		project = ev.Cwd
	}
	if project == "" || !filepath.IsAbs(project) {
		return true
	}
	project = filepath.Clean(project)
	return rel(project, root) != "" || rel(root, project) != ""
}
