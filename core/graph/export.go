package graph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ccd-dev/ccd/core/gobuild"
)

// ExportNode is a node in the export schema.
type ExportNode struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	Qual      string `json:"qual,omitempty"`
	Path      string `json:"path"`
	Lang      string `json:"lang,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Signature string `json:"signature,omitempty"`
	Owner     string `json:"owner,omitempty"`
	Test      bool   `json:"test,omitempty"`
	// Build is the build constraint of a Go file ("windows"), and
	// OtherBuild says the default build (this machine's GOOS and
	// GOARCH, no tags) leaves the node out.
	Build      string `json:"build,omitempty"`
	OtherBuild bool   `json:"other_build,omitempty"`
}

// ExportEdge is an edge in the export schema.
type ExportEdge struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Type       string `json:"type"`
	Confidence string `json:"confidence,omitempty"`
	Lines      []int  `json:"lines,omitempty"`
	Spec       string `json:"spec,omitempty"`
}

// WriteJSON writes the graph in the documented export schema
// ({"nodes":[...],"edges":[...]}), one node or edge per line, in canonical
// order, so the same graph always gives the same bytes.
func (g *Graph) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	item := func(i int, v any) error {
		buf.Reset()
		if i > 0 {
			buf.WriteString(",\n")
		}
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("encode graph: %w", err)
		}
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	bw.WriteString("{\"nodes\":[\n")
	for i := range g.Nodes {
		if err := item(i, g.ExportNode(i)); err != nil {
			return err
		}
	}
	bw.WriteString("\n],\"edges\":[\n")
	for i := range g.edges.n {
		if err := item(i, g.ExportEdge(i)); err != nil {
			return err
		}
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// ExportNode converts node i to the export schema.
func (g *Graph) ExportNode(i int) ExportNode {
	n := g.Nodes[i]
	return ExportNode{ID: n.ID, Kind: n.Kind.String(), Label: n.Name, Qual: n.Qual, Path: n.Path, Lang: n.Lang,
		StartLine: n.StartLine, EndLine: n.EndLine, Signature: n.Signature, Owner: n.Owner, Test: n.Test,
		Build: n.Build, OtherBuild: n.Build != "" && !gobuild.Default(n.Build)}
}

// ExportEdge converts edge i to the export schema.
func (g *Graph) ExportEdge(i int) ExportEdge {
	e := g.Edge(i)
	x := ExportEdge{From: g.Nodes[e.From].ID, To: g.Nodes[e.To].ID, Type: e.Type.String(), Lines: e.Lines, Spec: e.Spec}
	if e.Type != Contains {
		x.Confidence = e.Confidence.String()
	}
	return x
}

// Text renders the graph one fact per line, in canonical order: the form
// golden files and the fixture expectations use.
//
//	node func a.py::Cls.m L3-9 owner=a.py::Cls test
//	contains a.py -> a.py::Cls
//	call a.py::main -> b.py::helper [resolved] L4,7
//	import a.py -> b.py [resolved] L1
func (g *Graph) Text() string {
	var b strings.Builder
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "node %s %s", n.Kind, n.ID)
		if n.StartLine > 0 {
			fmt.Fprintf(&b, " L%d-%d", n.StartLine, n.EndLine)
		}
		if n.Owner != "" {
			fmt.Fprintf(&b, " owner=%s", n.Owner)
		}
		if n.Test {
			b.WriteString(" test")
		}
		if n.Build != "" {
			fmt.Fprintf(&b, " build=%q", n.Build)
		}
		b.WriteByte('\n')
	}
	for _, e := range g.AllEdges() {
		fmt.Fprintf(&b, "%s %s -> %s", e.Type, g.Nodes[e.From].ID, g.Nodes[e.To].ID)
		if e.Type != Contains {
			fmt.Fprintf(&b, " [%s]", e.Confidence)
		}
		if len(e.Lines) > 0 {
			ls := make([]string, len(e.Lines))
			for j, l := range e.Lines {
				ls[j] = fmt.Sprint(l)
			}
			fmt.Fprintf(&b, " L%s", strings.Join(ls, ","))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
