package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ccd-dev/ccd/core/compat"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/parse"
)

// siteReader reads the arguments of call sites from the workspace's files
// as they are now, for checking them against a changed signature. One
// reader serves one card; close it after.
type siteReader struct {
	root  string
	p     *parse.Parser
	files map[string][]byte
}

func newSiteReader(root string) *siteReader {
	return &siteReader{root: root, files: map[string][]byte{}}
}

func (r *siteReader) close() {
	if r.p != nil {
		r.p.Close()
	}
}

// calls returns the calls starting on a line of a file of lang.
func (r *siteReader) calls(path, lang string, line int) []parse.CallArgs {
	src, ok := r.files[path]
	if !ok {
		src, _ = os.ReadFile(filepath.Join(r.root, filepath.FromSlash(path)))
		r.files[path] = src
	}
	if src == nil {
		return nil
	}
	if r.p == nil {
		reg, err := parse.Default()
		if err != nil {
			return nil
		}
		r.p = reg.NewParser()
	}
	cs, err := r.p.CallsOnLine(lang, src, line)
	if err != nil {
		return nil
	}
	return cs
}

// siteVerdict is one call site checked against a new signature.
type siteVerdict struct {
	c       caller
	line    int
	verdict compat.Verdict
	why     string
}

// checkSites checks every call site of callers against the change of
// target's signature from before to after. ok is false when the language's
// signatures cannot be read: the card then says "may break" as before.
func checkSites(r *siteReader, before, after *graph.Node, callers []caller, overloads, oldOverloads []string) (out []siteVerdict, ok bool) {
	oldSig, newSig := compat.Parse(after.Lang, before.Signature), compat.Parse(after.Lang, after.Signature)
	if !oldSig.OK || !newSig.OK || r == nil {
		return nil, false
	}
	if compat.Compatible(oldSig, newSig) {
		// Only optional parameters were added: no call that worked
		// breaks, whatever it looks like.
		for _, c := range callers {
			for _, line := range c.Lines {
				out = append(out, siteVerdict{c: c, line: line, verdict: compat.Fine})
			}
		}
		return out, true
	}
	judge := func(call compat.Call) (compat.Verdict, string) {
		return compat.Check(oldSig, newSig, call, label(after))
	}
	if len(overloads) > 0 {
		if judge = overloadJudge(after, overloads, oldOverloads); judge == nil {
			return nil, false
		}
	}
	name := after.Name
	class := parentQual(after.Qual)
	if i := lastDot(class); i >= 0 {
		class = class[i+1:]
	}
	ctor := name == "__init__" || name == "constructor"
	selfFirst := len(newSig.Params) > 0 && (newSig.Params[0].Name == "self" || newSig.Params[0].Name == "cls")
	for _, c := range callers {
		for _, line := range c.Lines {
			v := siteVerdict{c: c, line: line, verdict: compat.Unknown, why: "the call could not be found at that line"}
			for _, a := range r.calls(c.Path, c.Lang, line) {
				if a.Name != name && !(ctor && a.Name == class) && !(ctor && a.Name == "super") {
					continue
				}
				call := compat.Call{Positional: a.Positional, Keywords: a.Keywords, Spread: a.Spread, KwSpread: a.KwSpread, Results: a.Results}
				if after.Lang == "python" && selfFirst {
					switch {
					case ctor && a.Name == class:
						call.Bound = true // Cls(...) supplies self
					case a.Receiver != "" && a.Receiver != class && !hasSuffixDot(a.Receiver, class):
						call.Bound = true // obj.m(...), self.m(...), super().m(...)
					}
				}
				verdict, why := judge(call)
				if verdict == compat.Breaks && c.Guess && after.Lang != "go" {
					// Bound by name only: the call may be to another
					// function of that name, which this change leaves
					// alone. (Go's name matches are nearly always right:
					// 0.97 against go/ssa in ORACLE.md; Python's 0.36.)
					verdict, why = compat.Unknown, "if it calls "+label(after)+" (bound by name only: the receiver's type is unknown), "+why
				}
				if v.why == "the call could not be found at that line" || verdict > v.verdict {
					v.verdict, v.why = verdict, why
				}
			}
			out = append(out, v)
		}
	}
	return out, true
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

func hasSuffixDot(s, suffix string) bool {
	return len(s) > len(suffix) && s[len(s)-len(suffix)-1] == '.' && s[len(s)-len(suffix):] == suffix
}

// SiteCheck is one call site of a function whose signature changed,
// checked against the new signature as an edit card does.
type SiteCheck struct {
	Path    string // the caller's file, relative to the root
	Line    int    // the call's line
	Caller  string // the caller's label
	Verdict string // "breaks", "fits" or "unknown"
	Why     string
}

// CheckSignatureChange checks every call site of node id, whose signature
// differs between before and after (graphs of the workspace at root, the
// files on disk as after), the way the edit card does. ok is false when the
// node is missing from either graph or its language's signatures cannot
// be read (the card then says "may break" for every caller).
func CheckSignatureChange(root string, before, after *graph.Graph, id string) (checks []SiteCheck, ok bool) {
	bi, ok1 := before.Index(id)
	ai, ok2 := after.Index(id)
	if !ok1 || !ok2 {
		return nil, false
	}
	r := newSiteReader(root)
	defer r.close()
	rel := after.Nodes[ai].Path
	cs := append(callersOf(before, after, id, rel), recursiveCalls(after, id)...)
	vs, ok := checkSites(r, before.Nodes[bi], after.Nodes[ai], cs, overloadSigs(after, id), overloadSigs(before, id))
	if !ok {
		return nil, false
	}
	for _, v := range vs {
		verdict := map[compat.Verdict]string{compat.Fine: "fits", compat.Breaks: "breaks", compat.Unknown: "unknown"}[v.verdict]
		checks = append(checks, SiteCheck{Path: v.c.Path, Line: v.line, Caller: v.c.Label, Verdict: verdict, Why: v.why})
	}
	return checks, true
}

// overloadSigs returns the overload signatures that stand before the
// implementation id in g (TypeScript `function f(a: string): T;` ...
// `function f(...xs) {}`: the implementation keeps the plain id, the
// signatures are id#2, id#3, ...), nil when id has none.
func overloadSigs(g *graph.Graph, id string) []string {
	i, ok := g.Index(id)
	if !ok || (g.Nodes[i].Lang != "typescript" && g.Nodes[i].Lang != "tsx") {
		return nil
	}
	var out []string
	for k := 2; ; k++ {
		j, ok := g.Index(id + "#" + strconv.Itoa(k))
		if !ok {
			break
		}
		if g.Nodes[j].StartLine >= g.Nodes[i].StartLine {
			return nil // not an implementation after its signatures
		}
		out = append(out, g.Nodes[j].Signature)
	}
	return out
}

// overloadJudge checks a call of an implementation with overload
// signatures: its callers see the signatures, not its own parameter list,
// so a call fits when one of them takes it, and one that none took before
// the edit either was broken already. nil when no signature can be read.
func overloadJudge(after *graph.Node, overloads, oldOverloads []string) func(compat.Call) (compat.Verdict, string) {
	parse := func(list []string) []compat.Sig {
		var sigs []compat.Sig
		for _, o := range list {
			if s := compat.Parse(after.Lang, o); s.OK {
				sigs = append(sigs, s)
			}
		}
		return sigs
	}
	sigs, old := parse(overloads), parse(oldOverloads)
	if len(sigs) == 0 {
		return nil
	}
	best := func(sigs []compat.Sig, call compat.Call) (compat.Verdict, string) {
		verdict, why := compat.Breaks, ""
		for _, s := range sigs {
			// no old signature: the call against s alone
			if vv, w := compat.Check(compat.Sig{}, s, call, label(after)); vv < verdict {
				verdict, why = vv, w
			}
		}
		return verdict, why
	}
	return func(call compat.Call) (compat.Verdict, string) {
		verdict, why := best(sigs, call)
		if verdict == compat.Breaks && len(old) > 0 {
			if was, _ := best(old, call); was == compat.Breaks {
				return compat.Fine, "no overload signature took it before the edit either"
			}
		}
		switch verdict {
		case compat.Breaks:
			why = fmt.Sprintf("no overload signature of %s takes it (%d signatures; %s)", label(after), len(sigs), why)
		case compat.Fine:
			why = "callers see its overload signatures, which take it"
		}
		return verdict, why
	}
}
