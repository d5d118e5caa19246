package oracle

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Report is one run's results.
type Report struct {
	Results []*Result
	Quick   bool
	Elapsed time.Duration
	Commit  string // ccd's commit, for the header
	Ctags   string // universal-ctags' version; "" when definitions were not measured
	Command string // the command that made it
}

// LangName is how the report names a language.
func LangName(lang string) string {
	switch lang {
	case "go":
		return "Go"
	case "python":
		return "Python"
	case "javascript":
		return "JavaScript/TypeScript"
	}
	return lang
}

// Totals pools one language's counts over its packages (micro average).
// unverified is the count of ccd sites the oracle could not check.
func (rep *Report) Totals(lang string) (sites, pairs Counts, unverified int) {
	for _, r := range rep.Results {
		if r.Lang != lang {
			continue
		}
		sites.Add(r.Sites)
		pairs.Add(r.Pairs)
		unverified += r.Unverified
	}
	return sites, pairs, unverified
}

func verifiable(c Counts, unverified int) float64 {
	c.CCD -= unverified
	return c.Precision()
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }

// SummaryTable is the per-language table (micro averages), the one the
// README quotes.
func (rep *Report) SummaryTable() string {
	var b strings.Builder
	b.WriteString("| language | packages | ccd call sites | oracle call sites | precision | recall | F1 | pairs P | pairs R | pairs F1 | P, checkable sites |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, lang := range languages(rep.Results) {
		s, p, u := rep.Totals(lang)
		var names []string
		for _, r := range rep.Results {
			if r.Lang == lang {
				names = append(names, r.Package)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | **%s** | %s | %s | %s | %s |\n", LangName(lang), strings.Join(names, ", "),
			s.CCD, s.Oracle, f3(s.Precision()), f3(s.Recall()), f3(s.F1()), f3(p.Precision()), f3(p.Recall()), f3(p.F1()), f3(verifiable(s, u)))
	}
	return b.String()
}

// Markdown renders the whole report.
func (rep *Report) Markdown() string {
	var b strings.Builder
	title := "ccd's call edges against independent call graphs"
	if rep.Quick {
		title += " (quick)"
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	cmd := rep.Command
	if cmd == "" {
		cmd = "just oracle"
	}
	fmt.Fprintf(&b, "Written by `%s` (internal/oracle; method, conventions and limits in\n[internal/oracle/README.md](internal/oracle/README.md))", cmd)
	if rep.Commit != "" {
		fmt.Fprintf(&b, " for ccd at `%s`", rep.Commit)
	}
	fmt.Fprintf(&b, ", `ccd export --lsp=off` (no language server), in %s.\n\n", rep.Elapsed.Round(time.Second))
	b.WriteString("Each call edge is normalised to (call-site file, call-site line, callee\n" +
		"definition file, callee definition start line), restricted to callees\n" +
		"defined in the package's analysed files. **Precision** = ccd's call sites the\n" +
		"oracle confirms / ccd's call sites; **recall** = the oracle's call sites ccd\n" +
		"finds / the oracle's call sites. *Pairs* count (caller, callee) once however\n" +
		"many sites join them. Totals pool the counts of a language's packages (micro).\n" +
		"*P, checkable sites* leaves out ccd's unconfirmed sites where the oracle saw\n" +
		"a call through the same name and could not resolve it, and ccd's inferred\n" +
		"edges to overrides of the method the oracle binds a call to (dispatch, which\n" +
		"none of the oracles follows): unconfirmed, not contradicted; the other\n" +
		"columns count them as spurious.\n\n")

	b.WriteString("## Per language\n\n")
	b.WriteString(rep.SummaryTable())
	b.WriteString("\n")

	b.WriteString("## Per package\n\n")
	b.WriteString("| language | package | version | oracle | files | ccd sites | oracle sites | matched | P | R | F1 | pairs P | pairs R | pairs F1 | P, checkable | ccd | oracle |\n")
	b.WriteString("|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rep.Results {
		pkg := r.Package
		if r.Sub != "" {
			pkg += " (" + r.Sub + "/)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %d | %s | %s | **%s** | %s | %s | %s | %s | %.1fs | %.1fs |\n",
			LangName(r.Lang), pkg, r.Version, r.Tool, r.Files, r.Sites.CCD, r.Sites.Oracle, r.Sites.Matched,
			f3(r.Sites.Precision()), f3(r.Sites.Recall()), f3(r.Sites.F1()),
			f3(r.Pairs.Precision()), f3(r.Pairs.Recall()), f3(r.Pairs.F1()), f3(r.VerifiablePrecision()),
			float64(r.CCDMillis)/1000, float64(r.OracleMillis)/1000)
	}
	b.WriteString("\n")

	b.WriteString(rep.DefsMarkdown())

	b.WriteString("## Precision per ccd confidence\n\n")
	b.WriteString("Confirmed / ccd's call sites of that confidence (precision).\n\n")
	confs := []string{"resolved", "inferred", "name-match", "lsp"}
	b.WriteString("| language | package | " + strings.Join(confs, " | ") + " |\n|---|---|" + strings.Repeat("--:|", len(confs)) + "\n")
	for _, lang := range languages(rep.Results) {
		tot := map[string]*Counts{}
		for _, r := range rep.Results {
			if r.Lang != lang {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s |", LangName(r.Lang), r.Package)
			for _, c := range confs {
				b.WriteString(" " + confCell(r.ByConfidence[c]) + " |")
				if r.ByConfidence[c] != nil {
					if tot[c] == nil {
						tot[c] = &Counts{}
					}
					tot[c].Add(*r.ByConfidence[c])
				}
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "| **%s** | **all** |", LangName(lang))
		for _, c := range confs {
			b.WriteString(" " + confCell(tot[c]) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")

	b.WriteString("## Recall per oracle edge kind\n\n")
	b.WriteString("Go: `static` (the callee is known statically), `interface` (a call through\n" +
		"an interface, to the abstract method: what ccd binds), `dynamic` (the concrete\n" +
		"functions VTA finds behind interfaces and function values; extra: they confirm\n" +
		"ccd's edges but their absence is not a miss). Python: `goto` (jedi's goto),\n" +
		"`infer` (jedi's inference, when goto stops at a variable or parameter),\n" +
		"`decorator` (a bare `@name`). JS/TS: `signature` (the checker's resolved\n" +
		"signature), `symbol` (the callee name's symbol).\n\n")
	b.WriteString("| language | package | kind | oracle sites | found by ccd | recall |\n|---|---|---|--:|--:|--:|\n")
	for _, r := range rep.Results {
		kinds := make([]string, 0, len(r.ByKind))
		for k := range r.ByKind {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			c := r.ByKind[k]
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s |\n", LangName(r.Lang), r.Package, k, c.Oracle, c.Matched, f3(c.Recall()))
		}
	}
	b.WriteString("\n")

	b.WriteString("## What the misses and the spurious edges are\n\n")
	b.WriteString("*wrong target*: the other side has a different callee on the same line.\n" +
		"*no ccd node*: the oracle's callee is a definition ccd has no node for.\n" +
		"*ignored*: edges in or to files the other side did not analyse (build-tag\n" +
		"variants, examples outside the module's packages).\n\n")
	b.WriteString("| language | package | missed | of which wrong target | of which no ccd node | spurious | of which wrong target | of which the oracle could not resolve | ignored ccd / oracle | oracle: sites seen, resolved in package, outside, unresolved |\n|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rep.Results {
		noNodeMissed := 0
		for _, m := range r.Missed {
			if m.NoNode {
				noNodeMissed++
			}
		}
		oc := r.OracleCounts
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d / %d | %s |\n", LangName(r.Lang), r.Package,
			len(r.Missed), r.MissedWrong, noNodeMissed, len(r.Spurious), r.SpuriousWrong, r.Unverified, r.Ignored, r.OracleIgnored, oracleCounts(r.Lang, oc))
	}
	b.WriteString("\n")

	b.WriteString("## Samples\n\n")
	b.WriteString("Up to 20 missed and 20 spurious call sites per package, spread over the\n" +
		"package (the full lists are in bin/oracle/<lang>-<package>.score.json).\n\n")
	for _, r := range rep.Results {
		fmt.Fprintf(&b, "### %s: %s\n\n", LangName(r.Lang), r.Package)
		if r.Note != "" {
			fmt.Fprintf(&b, "%s. %s.\n\n", r.Source, r.Note)
		}
		fmt.Fprintf(&b, "Missed (%d):\n\n", len(r.Missed))
		if len(r.MissedSample) > 0 {
			b.WriteString("| call site | code | oracle's callee | ccd there |\n|---|---|---|---|\n")
			for _, s := range r.MissedSample {
				callee := s.Callee
				if s.NoNode {
					callee += " (no ccd node)"
				}
				fmt.Fprintf(&b, "| %s:%d | %s | %s (%s) | %s |\n", s.File, s.Line, code(s.Text), code(callee), s.Kind, code(s.Other))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Spurious (%d):\n\n", len(r.Spurious))
		if len(r.SpuriousSample) > 0 {
			b.WriteString("| call site | code | ccd's callee | oracle there |\n|---|---|---|---|\n")
			for _, s := range r.SpuriousSample {
				other := code(s.Other)
				if s.Unverified {
					other = "could not resolve"
				}
				fmt.Fprintf(&b, "| %s:%d | %s | %s (%s) | %s |\n", s.File, s.Line, code(s.Text), code(s.Callee), s.Confidence, other)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func confCell(c *Counts) string {
	if c == nil || c.CCD == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%s)", c.Confirmed, c.CCD, f3(c.Precision()))
}

func oracleCounts(lang string, oc map[string]int) string {
	if oc == nil {
		return ""
	}
	switch lang {
	case "go":
		return fmt.Sprintf("static %d, interface %d, dynamic %d; to closures %d; outside %d",
			oc["static"], oc["interface"], oc["dynamic"], oc["static_closure"]+oc["dynamic_closure"],
			oc["static_outside"]+oc["interface_outside"]+oc["dynamic_outside"])
	case "python":
		return fmt.Sprintf("%d, %d, %d, %d (no name to resolve: %d)", oc["sites"], oc["resolved_in_root"], oc["resolved_outside"], oc["unresolved"], oc["unnamed_callee"])
	case "javascript":
		return fmt.Sprintf("%d, %d, %d, %d (anonymous callee: %d, not a function: %d; callbacks: %d)", oc["sites"], oc["resolved_in_root"], oc["resolved_outside"], oc["unknown"], oc["anonymous"], oc["not-a-function"], oc["callbacks"])
	}
	return ""
}

// code renders text as inline code inside a Markdown table cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// DefsTotals pools one language's definition counts over its packages.
func (rep *Report) DefsTotals(lang string) (tot DefResult) {
	for _, r := range rep.Results {
		if r.Lang == lang && r.Defs != nil {
			tot.Tags += r.Defs.Tags
			tot.Nodes += r.Defs.Nodes
			tot.Matched += r.Defs.Matched
		}
	}
	return tot
}

// DefsMarkdown is the section on definitions against universal-ctags.
func (rep *Report) DefsMarkdown() string {
	var b strings.Builder
	b.WriteString("## Definitions against universal-ctags\n\n")
	if rep.Ctags == "" {
		b.WriteString("Not measured: universal-ctags is not installed (scripts/install-oracle.sh installs it).\n\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%s tags the same files from their syntax. Compared: its functions,\n"+
		"methods, classes and types (Go func, struct, interface, type, alias, interface\n"+
		"method; Python class, function, member; JS/TS function, class, method,\n"+
		"generator, getter, setter, interface, enum, type alias), without its names\n"+
		"for anonymous functions, against ccd's named function and class nodes. A tag\n"+
		"and a node match when file and name are the same and their lines at most %d\n"+
		"apart, each used once. **Recall** = tags ccd has / tags (goal 0.97);\n"+
		"*precision* = ccd's nodes ctags tags too / ccd's nodes, a lower bound: ctags\n"+
		"tags no object-literal method, no nested function in some languages, and\n"+
		"loses track of some JavaScript classes.\n\n", rep.Ctags, DefSlack)
	b.WriteString("| language | package | ctags definitions | ccd definitions | matched | recall | precision |\n|---|---|--:|--:|--:|--:|--:|\n")
	for _, lang := range languages(rep.Results) {
		for _, r := range rep.Results {
			if r.Lang != lang || r.Defs == nil {
				continue
			}
			d := r.Defs
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s | %s |\n", LangName(r.Lang), r.Package, d.Tags, d.Nodes, d.Matched, f3(d.Recall()), f3(d.Precision()))
		}
		t := rep.DefsTotals(lang)
		fmt.Fprintf(&b, "| **%s** | **all** | %d | %d | %d | **%s** | %s |\n", LangName(lang), t.Tags, t.Nodes, t.Matched, f3(t.Recall()), f3(t.Precision()))
	}
	b.WriteString("\nctags' definitions ccd does not have (up to 8 per package; all in bin/oracle/<lang>-<package>.score.json):\n\n")
	for _, r := range rep.Results {
		if r.Defs == nil || len(r.Defs.Missed) == 0 {
			continue
		}
		fmt.Fprintf(&b, "- %s (%d):", r.Package, len(r.Defs.Missed))
		for i, t := range r.Defs.Missed {
			if i == 8 {
				b.WriteString(" …")
				break
			}
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s `%s:%d` %s %s", sep, t.Path, t.Line, t.Kind, code(t.Name))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}
