package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ccd-dev/ccd/core/graph"
)

// maxTargets caps the callees taken from one answer (overloads,
// implementations), so that one call site cannot fan out without bound.
const maxTargets = 16

// mapLocations maps server locations to graph nodes: the innermost
// function or class around each location whose name is the identifier
// there (walking outward), with classes replaced by their constructor
// (ctor), at most limit of them. external reports whether some location lies outside the
// workspace.
func (r *refiner) mapLocations(locs []Location, ctor bool, limit int) (nodes []int, external bool) {
	for _, l := range locs {
		rel, ok := relPath(r.root, l.Path)
		if !ok && r.realRoot != "" {
			rel, ok = relPath(r.realRoot, l.Path)
		}
		if !ok {
			if real, err := filepath.EvalSymlinks(l.Path); err == nil {
				rel, ok = relPath(r.root, real)
			}
		}
		if !ok {
			external = true
			continue
		}
		i := r.nodeAt(rel, l)
		if i < 0 {
			continue
		}
		if ctor && r.g.Nodes[i].Kind == graph.Class {
			if r.g.Nodes[i].Lang == "go" {
				continue // T(x) in Go converts; it calls nothing
			}
			i = r.constructor(i)
		}
		if !containsInt(nodes, i) && len(nodes) < limit {
			nodes = append(nodes, i)
		}
	}
	return nodes, external
}

// nodeAt finds the node a location names.
func (r *refiner) nodeAt(rel string, l Location) int {
	line := l.Line()
	var around []int
	for _, i := range r.g.InFile(rel) {
		n := r.g.Nodes[i]
		if n.Kind != graph.Module && n.StartLine <= line && line <= n.EndLine {
			around = append(around, i)
		}
	}
	if len(around) == 0 {
		return -1
	}
	// Innermost first.
	sort.Slice(around, func(a, b int) bool {
		x, y := r.g.Nodes[around[a]], r.g.Nodes[around[b]]
		return x.EndLine-x.StartLine < y.EndLine-y.StartLine
	})
	ident := ""
	if ls, err := r.lines(rel); err == nil {
		ident = identAt(ls, l.Range.Start)
	}
	for _, i := range around {
		n := r.g.Nodes[i]
		if ident == "" || n.Name == ident {
			if ident == "" && n.StartLine != line {
				continue
			}
			return i
		}
	}
	return -1
}

// constructor returns class i's constructor when it defines one, else i.
func (r *refiner) constructor(i int) int {
	cls := r.g.Nodes[i]
	for _, k := range r.g.Children(i) {
		n := r.g.Nodes[k]
		if n.Kind == graph.Func && (ctorNames[n.Name] || n.Name == cls.Name) {
			return k
		}
	}
	return i
}

// lines returns a workspace file's lines, cached.
func (r *refiner) lines(rel string) ([][]byte, error) {
	r.mu.Lock()
	ls, ok := r.texts[rel]
	r.mu.Unlock()
	if ok {
		return ls, nil
	}
	b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	ls = lines(b)
	r.mu.Lock()
	r.texts[rel] = ls
	r.mu.Unlock()
	return ls, nil
}
