package lsp

import (
	"regexp"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// candidate kinds, in the order they are asked about.
const (
	tierWeak     = iota // an edge at the site is name-match or inferred
	tierDispatch        // the site calls an interface method
	tierLikely          // no edge; the callee's name exists in the workspace
	tierRest            // no edge; probably a library call
	tierConfirm         // resolved edge, asked only with Confirm
)

// candidate is one call site to ask about.
type candidate struct {
	file   *facts.File
	lang   string
	call   facts.Call
	caller int   // node index
	tier   int   // tierWeak ...
	weak   []int // edge indexes of the weak edges at the site
	target int   // tierDispatch: the interface method's node
}

// interfaceSig recognises the signature of a class-like node whose
// methods are dispatched dynamically.
var interfaceSig = regexp.MustCompile(`\b(interface|trait|protocol|abstract)\b`)

// ctorNames are the names of constructors in the graph's conventions.
var ctorNames = map[string]bool{"__init__": true, "constructor": true, "initialize": true, "new": true}

// candidates lists the call sites worth asking about.
func (r *refiner) candidates(files []*facts.File) []candidate {
	g := r.g
	want := map[string]bool{}
	for _, l := range r.opt.Languages {
		want[l] = true
	}
	r.names, r.classes = map[string]bool{}, map[string]bool{}
	for _, n := range g.Nodes {
		if n.Kind != graph.Module {
			r.names[n.Name] = true
		}
		if n.Kind == graph.Class {
			r.classes[n.Name] = true
		}
	}
	var out []candidate
	for _, f := range files {
		if f == nil || len(f.Calls) == 0 {
			continue
		}
		lang := r.m.LanguageFor(f.Path)
		if lang == "" || (len(want) > 0 && !want[lang]) {
			continue
		}
		defNode, module, ok := CallerNodes(g, f)
		if !ok {
			continue
		}
		lib := newLibraryFilter(g, f, module, r.names)
		for _, c := range f.Calls {
			caller := module
			if c.Caller >= 0 && c.Caller < len(defNode) {
				caller = defNode[c.Caller]
			}
			if caller < 0 || c.Name == "" || !c.IsCallSite() {
				continue
			}
			cd := candidate{file: f, lang: lang, call: c, caller: caller, target: -1}
			best := graph.Confidence(0)
			for _, ei := range g.Out(caller) {
				e := g.Edge(ei)
				if e.Type != graph.Call || !hasLine(e.Lines, c.Line) || !r.callee(e.To, c.Name) {
					continue
				}
				if e.Confidence > best {
					best = e.Confidence
				}
				if e.Confidence <= graph.Inferred {
					cd.weak = append(cd.weak, ei)
				}
				if e.Confidence == graph.Resolved && r.isInterfaceMethod(e.To) {
					cd.target = e.To
				}
			}
			switch {
			case best >= graph.LSP:
				continue
			case best == 0 && !r.opt.Library && lib.library(c):
				r.stats.Library++
				continue
			case best == graph.Resolved && cd.target >= 0:
				cd.tier = tierDispatch
			case best == graph.Resolved:
				if !r.opt.Confirm {
					continue
				}
				cd.tier = tierConfirm
			case best > 0:
				cd.tier = tierWeak
			case r.names[c.Name]:
				cd.tier = tierLikely
			default:
				cd.tier = tierRest
			}
			out = append(out, cd)
		}
	}
	return out
}

// CallerNodes maps a file's definitions to g's nodes (-1 for a
// definition without one) and finds the file's module node (-1: none);
// ok is false when g has no node in the file. A call's caller is
// defNode[call.Caller], or the module for a call at top level.
func CallerNodes(g *graph.Graph, f *facts.File) (defNode []int, module int, ok bool) {
	nodes := g.InFile(f.Path)
	if len(nodes) == 0 {
		return nil, -1, false
	}
	defNode = make([]int, len(f.Defs))
	module = -1
	for i := range defNode {
		defNode[i] = -1
	}
	byQual := map[string][]int{}
	for _, ni := range nodes {
		n := g.Nodes[ni]
		if n.Kind == graph.Module {
			module = ni
			continue
		}
		byQual[n.Qual] = append(byQual[n.Qual], ni)
	}
	for di, d := range f.Defs {
		for _, ni := range byQual[d.Qual] {
			if g.Nodes[ni].StartLine == d.StartLine {
				defNode[di] = ni
			}
		}
	}
	return defNode, module, true
}

func hasLine(lines []int, l int) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// callee reports whether node i can be what a call of name reaches: the
// function or class of that name, or the constructor of that class.
func (r *refiner) callee(i int, name string) bool {
	n := r.g.Nodes[i]
	if n.Name == name {
		return true
	}
	if n.Kind == graph.Func && (ctorNames[n.Name] || r.classes[n.Name]) {
		// The constructor of that class, or one it inherits (the resolver
		// binds Sub() to Base.__init__ when Sub defines none).
		if p := r.class(i); p >= 0 && (r.g.Nodes[p].Name == name || r.classes[name]) {
			return true
		}
	}
	return false
}

// class returns the class a function belongs to (its syntactic parent or
// its Owner), or -1.
func (r *refiner) class(i int) int {
	if p := r.g.Parent(i); p >= 0 && r.g.Nodes[p].Kind == graph.Class {
		return p
	}
	if o := r.g.Nodes[i].Owner; o != "" {
		if j, ok := r.g.Index(o); ok {
			return j
		}
	}
	return -1
}

// isInterfaceMethod reports whether node i is a method declared in an
// interface (trait, protocol, abstract class).
func (r *refiner) isInterfaceMethod(i int) bool {
	n := r.g.Nodes[i]
	if n.Kind != graph.Func {
		return false
	}
	p := r.g.Parent(i)
	return p >= 0 && r.g.Nodes[p].Kind == graph.Class && interfaceSig.MatchString(r.g.Nodes[p].Signature)
}
