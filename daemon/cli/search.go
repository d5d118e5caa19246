package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/search"
)

// searchFlags are the query parameters shared by query and pack.
type searchFlags struct {
	root, symbol, section, parent, kind, glob, match, dsl, session string
	asJSON                                                         bool
}

func (s *searchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.root, "root", ".", "workspace root")
	fs.StringVar(&s.symbol, "symbol", "", "a code symbol (name, Class.method, node id)")
	fs.StringVar(&s.section, "section", "", "a Markdown section heading")
	fs.StringVar(&s.parent, "parent", "", "only members of this class or section")
	fs.StringVar(&s.kind, "kind", "", "definition, reference or any")
	fs.StringVar(&s.glob, "glob", "", `only files matching this glob ("src/**/*.ts")`)
	fs.StringVar(&s.match, "match", "", "several patterns: any (default) or all")
	fs.StringVar(&s.dsl, "dsl", "", `an s-expression query: (intersect (grep "auth") (code "validate"))`)
	fs.StringVar(&s.session, "session", "cli", "session name (handles expanded in it rank lower in packs)")
	fs.BoolVar(&s.asJSON, "json", false, "print JSON")
}

func (s *searchFlags) params(patterns []string) search.QueryParams {
	q := search.QueryParams{Symbol: s.symbol, Section: s.section, Parent: s.parent, Kind: s.kind, Glob: s.glob, Match: s.match, Query: s.dsl}
	switch len(patterns) {
	case 0:
	case 1:
		q.Pattern = patterns[0]
	default:
		q.Patterns = patterns
	}
	return q
}

// searchCall posts to a retrieval endpoint of the daemon (starting it when
// needed) and decodes the answer into out (or copies it to an io.Writer).
func searchCall(op, root, session string, body map[string]any, out any) error {
	deadline := time.Now().Add(2 * time.Minute)
	cl, err := connect(2*time.Minute, true)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(root)
	body["root"], body["session"] = abs, session
	return cl.within(time.Until(deadline)).do(http.MethodPost, "/v1/search/"+op, body, out)
}

func toMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	m := map[string]any{}
	json.Unmarshal(b, &m)
	return m
}

func runQuery(c *ctx, args []string) error {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	var sf searchFlags
	sf.register(fs)
	limit := fs.Int("limit", 16, "most handles")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	q := sf.params(pos)
	q.Limit = *limit
	if q.Pattern == "" && len(q.Patterns) == 0 && q.Symbol == "" && q.Section == "" && q.Parent == "" && q.Query == "" {
		return usageError{"give a PATTERN, or --symbol, --section, --parent or --dsl"}
	}
	var res search.QueryResult
	var raw bytes.Buffer
	if err := searchCall("query", sf.root, sf.session, toMap(q), &raw); err != nil {
		return err
	}
	if sf.asJSON {
		_, err := io.Copy(c.stdout, &raw)
		return err
	}
	if err := json.Unmarshal(raw.Bytes(), &res); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	for _, h := range res.Handles {
		fmt.Fprintf(c.stdout, "%s  %s:%d-%d  %s  %d tok  %s\n", h.ID, h.FilePath, h.LineRange[0], h.LineRange[1], kindSymbol(h.NodeType, h.Symbol), h.TokenCount, h.Preview)
	}
	for _, r := range res.RefHandles {
		fmt.Fprintf(c.stdout, "  %s  %s:%d  %s %s\n", r.RefType, r.FilePath, r.LineRange[0], r.Name, r.Preview)
	}
	more := ""
	if res.Truncated {
		more = " (truncated: narrow the query or raise --limit)"
	}
	if len(res.Handles) == 0 {
		fmt.Fprintf(c.stdout, "no match for %s in %s; try other or fewer words, or --symbol NAME\n", describeQuery(q), sf.root)
	} else {
		fmt.Fprintf(c.stdout, "%d of %d matches, %d tokens to expand them all%s\n", len(res.Handles), res.TotalMatches, res.TotalTokens, more)
	}
	if res.Note != "" {
		fmt.Fprintln(c.stdout, res.Note)
	}
	return nil
}

func runPack(c *ctx, args []string) error {
	fs := flag.NewFlagSet("pack", flag.ContinueOnError)
	var sf searchFlags
	sf.register(fs)
	maxHandles := fs.Int("max-handles", 8, "most handles in the pack")
	maxPerFile := fs.Int("max-per-file", 2, "most handles from one file")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	req := search.PackRequest{QueryParams: sf.params(pos), MaxHandles: *maxHandles, MaxPerFile: *maxPerFile}
	if req.Pattern == "" && len(req.Patterns) == 0 && req.Symbol == "" && req.Section == "" && req.Parent == "" && req.Query == "" {
		return usageError{"give a PATTERN, or --symbol, --section, --parent or --dsl"}
	}
	var raw bytes.Buffer
	if err := searchCall("evidence_pack", sf.root, sf.session, toMap(req), &raw); err != nil {
		return err
	}
	if sf.asJSON {
		_, err := io.Copy(c.stdout, &raw)
		return err
	}
	var p search.Pack
	if err := json.Unmarshal(raw.Bytes(), &p); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	for _, h := range p.Handles {
		fmt.Fprintf(c.stdout, "%s  %s:%d-%d  %s  %d tok  score %.2f\n", h.ID, h.FilePath, h.LineRange[0], h.LineRange[1], kindSymbol(h.NodeType, h.Symbol), h.TokenCount, h.Score)
	}
	if len(p.Handles) == 0 {
		fmt.Fprintf(c.stdout, "no match for %s in %s\n", describeQuery(req.QueryParams), sf.root)
	}
	g := p.Guidance
	fmt.Fprintf(c.stdout, "guidance: %s (confidence %.2f, %s); expand first: %s\n%s\n", g.RecommendedAction, g.Confidence, g.ConfidenceBand,
		strings.Join(p.ExpandSuggestion, " "), g.NextStep)
	return nil
}

func runExpand(c *ctx, args []string) error {
	fs := flag.NewFlagSet("expand", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	session := fs.String("session", "cli", "session name")
	asJSON := fs.Bool("json", false, "print JSON")
	ids, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return usageError{"give one or more handle ids (from ccd query or ccd pack)"}
	}
	var raw bytes.Buffer
	if err := searchCall("expand", *root, *session, map[string]any{"handle_ids": ids}, &raw); err != nil {
		return err
	}
	if *asJSON {
		_, err := io.Copy(c.stdout, &raw)
		return err
	}
	var res search.ExpandResult
	if err := json.Unmarshal(raw.Bytes(), &res); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	fmt.Fprint(c.stdout, res.Text())
	return nil
}

// kindSymbol is a handle's node type and, when it has one, its symbol:
// "function Server.Serve".
func kindSymbol(nodeType, symbol string) string {
	if symbol == "" {
		return nodeType
	}
	return nodeType + " " + symbol
}

// describeQuery says what a query searched for, for an empty answer.
func describeQuery(q search.QueryParams) string {
	var parts []string
	add := func(what, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf("%s %q", what, v))
		}
	}
	add("the words", q.Pattern)
	if len(q.Patterns) > 0 {
		add("the patterns", strings.Join(q.Patterns, ", "))
	}
	add("the symbol", q.Symbol)
	add("the section", q.Section)
	add("members of", q.Parent)
	add("the query", q.Query)
	add("files matching", q.Glob)
	if len(parts) == 0 {
		return "the query"
	}
	return strings.Join(parts, ", ")
}
