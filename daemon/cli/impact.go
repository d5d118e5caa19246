package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// notFound explains an unknown symbol and suggests similar ones.
func notFound(g *graph.Graph, q string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "symbol not found: %q", q)
	if sug := g.Similar(q, 5); len(sug) > 0 {
		b.WriteString("\nSimilar symbols:")
		for _, s := range sug {
			n := g.Nodes[s.Node]
			fmt.Fprintf(&b, "\n  • %s (%s in %s)", n.Qual, n.Kind, n.Loc())
		}
		b.WriteString("\nHint: use one of the names above, or a node id like path/to/file.py::Class.method")
	} else {
		b.WriteString("\nHint: check the spelling, or run `ccd symbols QUERY` to search; the graph holds functions, classes and files")
	}
	return fmt.Errorf("%s", b.String())
}

func runImpact(c *ctx, args []string) error {
	fs := flag.NewFlagSet("impact", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	depth := fs.Int("depth", 3, "hops of transitive callers to follow (0: unlimited)")
	minConf := fs.String("min-confidence", "name-match", "drop weaker edges: name-match, inferred, resolved, lsp")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one symbol"}
	}
	conf, err := graph.ParseConfidence(*minConf)
	if err != nil {
		return usageError{err.Error()}
	}
	if *depth < 0 {
		return usageError{"--depth must be 0 (unlimited) or more"}
	}
	res, err := load(*root)
	if err != nil {
		return err
	}
	g := res.Graph
	cands := g.Find(pos[0])
	if len(cands) == 0 {
		return notFound(g, pos[0])
	}
	im := g.Impact(cands[0], *depth, graph.Filter{MinConfidence: conf})
	if *asJSON {
		return writeImpactJSON(c.stdout, g, im, cands[1:])
	}
	writeImpactText(c.stdout, g, im, cands[1:])
	return nil
}

const listLimit = 20

func writeImpactText(w io.Writer, g *graph.Graph, im graph.Impact, others []int) {
	t := g.Nodes[im.Target]
	fmt.Fprintf(w, "Impact of %s\n", g.Describe(im.Target))
	if t.Signature != "" {
		fmt.Fprintf(w, "  %s\n", t.Signature)
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "  (%d other matches, e.g. %s)\n", len(others), g.Nodes[others[0]].ID)
	}
	section := func(title string, nbs []graph.Neighbor, callees bool) {
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(nbs))
		for i, nb := range nbs {
			if i == listLimit {
				fmt.Fprintf(w, "  … %d more\n", len(nbs)-listLimit)
				break
			}
			n := g.Nodes[nb.Node]
			loc := nb.SiteLoc()
			if callees {
				loc = n.Loc()
			}
			fmt.Fprintf(w, "  %-40s %s  [%s]\n", label(n), loc, nb.Confidence)
		}
	}
	section("Callers", im.Callers, false)
	section("Callees", im.Callees, true)
	depth := fmt.Sprint(im.Depth)
	if im.Depth == 0 {
		depth = "unlimited"
	}
	fmt.Fprintf(w, "\nBlast radius (depth %s): %d symbols in %d files\n", depth, len(im.Upstream), len(im.Files(g)))
	for i, h := range im.Upstream {
		if i == listLimit {
			fmt.Fprintf(w, "  … %d more\n", len(im.Upstream)-listLimit)
			break
		}
		n := g.Nodes[h.Node]
		fmt.Fprintf(w, "  %d  %-40s %s  [%s]\n", h.Depth, label(n), n.Loc(), g.Edges[h.Edge].Confidence)
	}
	fmt.Fprintf(w, "\nAffected tests (%d):\n", len(im.Tests))
	for i, ti := range im.Tests {
		if i == listLimit {
			fmt.Fprintf(w, "  … %d more\n", len(im.Tests)-listLimit)
			break
		}
		n := g.Nodes[ti]
		fmt.Fprintf(w, "  %-40s %s\n", label(n), n.Loc())
	}
}

func label(n *graph.Node) string {
	if n.Qual != "" {
		return n.Qual
	}
	return n.Path
}

type jsonNeighbor struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Line       int    `json:"line,omitempty"`
	Calls      int    `json:"calls"`
	Confidence string `json:"confidence"`
	Sites      []int  `json:"site_lines,omitempty"`
	SitePath   string `json:"site_path,omitempty"`
}

type jsonHit struct {
	ID         string `json:"id"`
	Path       string `json:"path"`
	Line       int    `json:"line,omitempty"`
	Depth      int    `json:"depth"`
	Via        string `json:"via"`
	Confidence string `json:"confidence"`
}

func writeImpactJSON(w io.Writer, g *graph.Graph, im graph.Impact, others []int) error {
	nbs := func(in []graph.Neighbor) []jsonNeighbor {
		out := []jsonNeighbor{}
		for _, nb := range in {
			n := g.Nodes[nb.Node]
			out = append(out, jsonNeighbor{ID: n.ID, Kind: n.Kind.String(), Path: n.Path, Line: n.StartLine,
				Calls: nb.Calls, Confidence: nb.Confidence.String(), Sites: nb.Lines, SitePath: nb.Path})
		}
		return out
	}
	hits := []jsonHit{}
	for _, h := range im.Upstream {
		n := g.Nodes[h.Node]
		hits = append(hits, jsonHit{ID: n.ID, Path: n.Path, Line: n.StartLine, Depth: h.Depth,
			Via: g.Nodes[h.Via].ID, Confidence: g.Edges[h.Edge].Confidence.String()})
	}
	files := im.Files(g)
	if files == nil {
		files = []string{}
	}
	tests := []string{}
	for _, t := range im.Tests {
		tests = append(tests, g.Nodes[t].ID)
	}
	alt := []string{}
	for _, o := range others {
		alt = append(alt, g.Nodes[o].ID)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{
		"target":        g.ExportNode(im.Target),
		"callers":       nbs(im.Callers),
		"callees":       nbs(im.Callees),
		"blast_radius":  hits,
		"files":         files,
		"tests":         tests,
		"depth":         im.Depth,
		"other_matches": alt,
	})
}

func runSymbols(c *ctx, args []string) error {
	fs := flag.NewFlagSet("symbols", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	limit := fs.Int("limit", 20, "most results to print")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one query"}
	}
	if *limit < 1 {
		return usageError{"--limit must be at least 1"}
	}
	res, err := load(*root)
	if err != nil {
		return err
	}
	g := res.Graph
	// Exact matches first, then fuzzy ones.
	seen := map[int]bool{}
	var hits []int
	for _, i := range g.Find(pos[0]) {
		seen[i] = true
		hits = append(hits, i)
	}
	for _, s := range g.Similar(pos[0], *limit) {
		if !seen[s.Node] {
			seen[s.Node] = true
			hits = append(hits, s.Node)
		}
	}
	if len(hits) > *limit {
		hits = hits[:*limit]
	}
	if *asJSON {
		out := []graph.ExportNode{}
		for _, i := range hits {
			out = append(out, g.ExportNode(i))
		}
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(hits) == 0 {
		return fmt.Errorf("no symbol resembles %q", pos[0])
	}
	for _, i := range hits {
		n := g.Nodes[i]
		fmt.Fprintf(c.stdout, "%-6s %-40s %s\n", n.Kind, label(n), n.Loc())
	}
	return nil
}
