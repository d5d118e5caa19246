package hooks

import (
	"fmt"
	"sort"
)

// stop reminds the agent, once per edit, of callers of a changed signature
// or a removed symbol that it never opened nor marked on the board. It
// never blocks (no decision field) and says nothing when a Stop hook is
// already active.
func (e *Engine) stop(ev *Event) outcome {
	if ev.StopHook {
		return outcome{reason: "stop_hook_active"}
	}
	type pending struct {
		key    string
		ed     edited
		unread []caller
	}
	var todo []pending
	e.peekSession(ev, func(s *session) {
		for key, ed := range s.Edited {
			if s.Reminded[key] {
				continue
			}
			var unread []caller
			for _, c := range ed.Callers {
				if !covered(s.Read[ed.Root+"|"+c.Path], c.Start, c.End) {
					unread = append(unread, c)
				}
			}
			todo = append(todo, pending{key, ed, unread})
		}
	})
	sort.Slice(todo, func(i, j int) bool { return todo[i].key < todo[j].key })
	var lines []string
	var keys []string
	root := ""
	for _, p := range todo {
		marked := e.host.Board(p.ed.Root).Marked
		var unread []caller
		for _, c := range p.unread {
			if !marked[c.ID] && !marked[p.ed.Target] {
				unread = append(unread, c)
			}
		}
		keys = append(keys, p.key)
		if len(unread) == 0 {
			continue
		}
		root = p.ed.Root
		what := map[string]string{"signature": "changed the signature of", "removed": "removed", "renamed": "renamed"}[p.ed.What]
		were := fmt.Sprintf("%d callers were", len(unread))
		if len(unread) == 1 {
			were = "1 caller was"
		}
		lines = append(lines, fmt.Sprintf("You %s %s; %s never opened: %s", what, p.ed.Label, were, siteList(unread, 4)))
	}
	e.withSession(ev, func(s *session) {
		for _, k := range keys {
			s.Reminded[k] = true
		}
	})
	if len(lines) == 0 {
		return outcome{reason: "no unchecked callers"}
	}
	c := card{head: "[ccd stop-check] Before you finish:", body: lines,
		next: "open those call sites (or mark them on the board with canvas action=mark) and run the affected tests."}
	return outcome{kind: "stop", root: root, text: c.fit(e.pol.CardMax), reason: "unchecked callers"}
}

// covered reports whether the read ranges include lines [start, end].
func covered(ranges [][2]int, start, end int) bool {
	for _, r := range ranges {
		if r[1] == 0 && r[0] <= 1 {
			return true
		}
		to := r[1]
		if to == 0 {
			to = 1 << 30
		}
		if r[0] <= start && to >= end {
			return true
		}
		// A read that shows the call site is enough.
		if r[0] <= start && to >= start {
			return true
		}
	}
	return false
}
