package oracle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// Definitions are measured against universal-ctags, which tags the
// definitions of a file from its syntax alone: every function, method,
// class and type ctags names should be a ccd node (recall), and the named
// ccd nodes ctags also tags give the precision. ctags names no anonymous
// function (its AnonymousFunction… placeholders are left out) and tags
// neither object-literal methods nor nested declarations in every
// language, so precision is a lower bound; recall is the figure issue 15
// sets a goal for (0.97).

// ctagsKinds are the ctags kinds, per ctags language, that are
// definitions ccd makes nodes for; variables, constants, fields,
// properties, imports and parameters are not.
var ctagsKinds = map[string]map[string]bool{
	"Go":         {"func": true, "struct": true, "interface": true, "type": true, "talias": true, "methodSpec": true},
	"Python":     {"class": true, "function": true, "member": true},
	"JavaScript": {"function": true, "class": true, "method": true, "generator": true, "getter": true, "setter": true},
	"TypeScript": {"function": true, "class": true, "method": true, "interface": true, "enum": true, "alias": true, "generator": true},
}

// Tag is one definition ctags reports.
type Tag struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Lang string `json:"language"`
}

// DefResult is one package's definitions against ctags.
type DefResult struct {
	Tool string `json:"tool"`
	// Tags: ctags' definitions of the kinds compared; Nodes: ccd's named
	// function and class nodes; Matched: pairs of the two (same file and
	// name, lines at most DefSlack apart, each used once).
	Tags    int `json:"tags"`
	Nodes   int `json:"nodes"`
	Matched int `json:"matched"`
	// ByKind: ctags' kinds, tags and matched.
	ByKind map[string]*[2]int `json:"by_kind"`
	Missed []Tag              `json:"missed"`
}

// Recall is the share of ctags' definitions ccd has.
func (d *DefResult) Recall() float64 { return ratio(d.Matched, d.Tags) }

// Precision is the share of ccd's named definitions ctags also tags.
func (d *DefResult) Precision() float64 { return ratio(d.Matched, d.Nodes) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// DefSlack is how many lines a tag and a node may be apart and still be
// one definition: decorators, `export` lines and attributes put ccd's
// start line above the name's.
const DefSlack = 3

// CtagsVersion returns universal-ctags' version line, or an error when
// `ctags` is missing or is another ctags.
func CtagsVersion() (string, error) {
	out, err := exec.Command("ctags", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("ctags: %w (install universal-ctags: scripts/install-oracle.sh)", err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(line, "Universal Ctags") {
		return "", fmt.Errorf("ctags is not universal-ctags: %q", line)
	}
	return strings.TrimSuffix(line, ","), nil
}

// RunCtags tags the Go, Python, JavaScript and TypeScript files under
// root and returns the definitions of the kinds compared.
func RunCtags(root string) ([]Tag, error) {
	cmd := exec.Command("ctags", "--output-format=json", "--fields=+nKl",
		"--languages=Go,Python,JavaScript,TypeScript", "-R", "-f", "-", ".")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("ctags in %s: %w: %s", root, err, strings.TrimSpace(stderr.String()))
	}
	return ParseCtags(out)
}

// ParseCtags reads ctags' JSON lines and keeps the definitions compared,
// one per file, line and name (ctags tags `app.all = function all() {}`
// as both a class and a function).
func ParseCtags(out []byte) ([]Tag, error) {
	var tags []Tag
	type place struct {
		path, name string
		line       int
	}
	seen := map[place]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var t struct {
			Tag
			Type string `json:"_type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("ctags output: %w", err)
		}
		if t.Type != "tag" || !ctagsKinds[t.Lang][t.Kind] || anonymousTag(t.Name) {
			continue
		}
		t.Path = strings.TrimPrefix(t.Path, "./")
		if p := (place{t.Path, t.Name, t.Line}); !seen[p] {
			seen[p] = true
			tags = append(tags, t.Tag)
		}
	}
	return tags, sc.Err()
}

// anonymousTag reports ctags' names for functions that have none.
func anonymousTag(name string) bool {
	return strings.HasPrefix(name, "AnonymousFunction") || strings.HasPrefix(name, "__anon")
}

// ScoreDefs matches ctags' definitions with ccd's function and class
// nodes: same file, same name, start lines at most DefSlack apart, each
// node used once (the closest first).
func ScoreDefs(g *Graph, tags []Tag) *DefResult {
	r := &DefResult{ByKind: map[string]*[2]int{}}
	type key struct{ path, name string }
	nodes := map[key][]int{} // start lines
	for _, n := range g.Nodes {
		if (n.Kind != "func" && n.Kind != "class") || strings.HasPrefix(n.Label, "fn@") {
			continue
		}
		r.Nodes++
		k := key{n.Path, n.Label}
		nodes[k] = append(nodes[k], n.StartLine)
	}
	type cand struct{ tag, line, dist int }
	var cands []cand
	for i, t := range tags {
		for _, l := range nodes[key{t.Path, t.Name}] {
			if d := abs(l - t.Line); d <= DefSlack {
				cands = append(cands, cand{i, l, d})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	tagUsed := make([]bool, len(tags))
	type place struct {
		key
		line int
	}
	nodeUsed := map[place]bool{}
	for _, c := range cands {
		t := tags[c.tag]
		p := place{key{t.Path, t.Name}, c.line}
		if tagUsed[c.tag] || nodeUsed[p] {
			continue
		}
		tagUsed[c.tag], nodeUsed[p] = true, true
		r.Matched++
	}
	r.Tags = len(tags)
	for i, t := range tags {
		k := t.Lang + " " + t.Kind
		if r.ByKind[k] == nil {
			r.ByKind[k] = &[2]int{}
		}
		r.ByKind[k][0]++
		if tagUsed[i] {
			r.ByKind[k][1]++
		} else {
			r.Missed = append(r.Missed, t)
		}
	}
	return r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
