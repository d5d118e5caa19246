package report

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// TestCommand suggests how to run the given test nodes: `go test` with a
// -run filter per package (the whole package past six tests), pytest node
// ids (their files past four, their directories past four files), or the
// test files.
func TestCommand(g *graph.Graph, tests []int) string {
	if len(tests) == 0 {
		return ""
	}
	type goPkg struct{ names []string }
	gos := map[string]*goPkg{}
	var goDirs []string
	var py, other []string
	seen := map[string]bool{}
	for _, t := range tests {
		n := g.Nodes[t]
		switch {
		case n.Lang == "go" && n.Kind == graph.Func:
			dir := "./" + path.Dir(n.Path)
			if path.Dir(n.Path) == "." {
				dir = "."
			}
			p := gos[dir]
			if p == nil {
				p = &goPkg{}
				gos[dir] = p
				goDirs = append(goDirs, dir)
			}
			name := n.Name
			if !seen[dir+name] {
				seen[dir+name] = true
				p.names = append(p.names, name)
			}
		case n.Lang == "python" && n.Kind != graph.Module:
			id := n.Path + "::" + strings.ReplaceAll(n.Qual, ".", "::")
			if !seen[id] {
				seen[id] = true
				py = append(py, id)
			}
		default:
			if !seen[n.Path] {
				seen[n.Path] = true
				other = append(other, n.Path)
			}
		}
	}
	var cmds []string
	sort.Strings(goDirs)
	for _, d := range goDirs {
		names := gos[d].names
		sort.Strings(names)
		if len(names) > 6 {
			cmds = append(cmds, "go test "+d)
			continue
		}
		cmds = append(cmds, fmt.Sprintf("go test %s -run '^(%s)$'", d, strings.Join(names, "|")))
	}
	if len(py) > 0 {
		sort.Strings(py)
		if len(py) > 4 {
			files := map[string]bool{}
			var fs []string
			for _, id := range py {
				f, _, _ := strings.Cut(id, "::")
				if !files[f] {
					files[f] = true
					fs = append(fs, f)
				}
			}
			py = fs
			if len(fs) > 4 {
				dirs := map[string]bool{}
				var ds []string
				for _, f := range fs {
					d := path.Dir(f) + "/"
					if d == "./" {
						d = "."
					}
					if !dirs[d] {
						dirs[d] = true
						ds = append(ds, d)
					}
				}
				py = ds
			}
		}
		cmds = append(cmds, "python -m pytest "+strings.Join(py, " "))
	}
	if len(other) > 0 {
		sort.Strings(other)
		if len(other) > 4 {
			other = append(other[:4], fmt.Sprintf("+%d more", len(other)-4))
		}
		cmds = append(cmds, "run the tests in "+strings.Join(other, ", "))
	}
	return strings.Join(cmds, " && ")
}
