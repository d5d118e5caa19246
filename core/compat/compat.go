// Package compat decides whether a call site still fits a function whose
// signature changed: it reads parameter lists from the one-line
// signatures the graph keeps (Python, Go, JavaScript, TypeScript), says
// what changed ("new optional parameter `limit`"), and checks a call's
// arguments against the new list the way the language binds them
// (positional and keyword arguments, defaults, *args/**kwargs, rest
// parameters, Go variadics and result counts). Its verdicts are what an
// edit card says: a call site that will break and why, one that is
// unaffected, or one that cannot be checked (it unpacks arguments).
package compat

import (
	"fmt"
	"strings"

	"github.com/ccd-dev/ccd/core/words"
)

// Kind is how a parameter takes its argument.
type Kind uint8

const (
	Normal  Kind = iota // positional or keyword
	PosOnly             // Python: before "/"
	KwOnly              // Python: after "*" or *args
	Var                 // *args, ...rest, Go's ...T
	VarKw               // **kwargs
)

// Param is one parameter.
type Param struct {
	Name     string
	Kind     Kind
	Optional bool   // has a default, or TypeScript's `?`
	Type     string // as written, "" when not given
}

// Sig is a parsed signature.
type Sig struct {
	Lang   string
	Params []Param
	// Results counts a Go function's results (-1: not Go, or unknown).
	Results     int
	ResultTypes string
	OK          bool // the parameter list was read
}

// Call is a call site's arguments.
type Call struct {
	Positional int
	Keywords   []string
	Spread     bool // unpacks a sequence: *xs, ...xs, xs...
	KwSpread   bool // unpacks a mapping: **kw
	// Results (Go): 0 results dropped, N assigned to N names, -1 used as
	// one value.
	Results int
	// Bound marks a call that supplies the first parameter itself (a
	// Python method called on an instance, or a constructor call: self).
	Bound bool
}

// Verdict is what a check found.
type Verdict uint8

const (
	Fine    Verdict = iota // the call still fits
	Unknown                // cannot tell (unpacked arguments, an unread signature)
	Breaks                 // the call no longer fits
)

// Parse reads the parameter list of a one-line signature of lang.
func Parse(lang, sig string) Sig {
	s := Sig{Lang: lang, Results: -1}
	switch lang {
	case "python":
		s.Params, s.OK = parsePython(sig)
	case "go":
		s.Params, s.Results, s.ResultTypes, s.OK = parseGo(sig)
	case "javascript", "typescript", "tsx", "jsx":
		s.Params, s.OK = parseJS(sig)
	}
	return s
}

// Describe says what changed between two signatures, e.g. "new optional
// parameter `limit`"; "" when the parameter lists read the same.
func Describe(old, new Sig) string {
	if !old.OK || !new.OK {
		return ""
	}
	var parts []string
	oldBy := map[string]int{}
	for i, p := range old.Params {
		oldBy[p.Name] = i
	}
	newBy := map[string]int{}
	for i, p := range new.Params {
		newBy[p.Name] = i
	}
	renamed := map[string]bool{}
	for i, p := range new.Params {
		if _, ok := oldBy[p.Name]; ok {
			continue
		}
		// Same place, a name the new list no longer has: a rename.
		if i < len(old.Params) {
			if o := old.Params[i]; o.Name != p.Name && !hasName(new.Params, o.Name) && o.Kind == p.Kind {
				parts = append(parts, fmt.Sprintf("parameter `%s` renamed to `%s`", o.Name, p.Name))
				renamed[o.Name] = true
				continue
			}
		}
		switch {
		case p.Kind == Var || p.Kind == VarKw:
			parts = append(parts, fmt.Sprintf("new variadic parameter `%s`", p.Name))
		case p.Optional:
			parts = append(parts, fmt.Sprintf("new optional parameter `%s`", p.Name))
		default:
			parts = append(parts, fmt.Sprintf("new required parameter `%s`", p.Name))
		}
	}
	for _, o := range old.Params {
		if !hasName(new.Params, o.Name) && !renamed[o.Name] {
			parts = append(parts, fmt.Sprintf("parameter `%s` removed", o.Name))
		}
	}
	moved := false
	for _, o := range old.Params {
		if !hasName(new.Params, o.Name) {
			continue
		}
		p := new.Params[newBy[o.Name]]
		switch {
		case o.Optional && !p.Optional:
			parts = append(parts, fmt.Sprintf("`%s` is now required", o.Name))
		case !o.Optional && p.Optional:
			parts = append(parts, fmt.Sprintf("`%s` is now optional", o.Name))
		}
		if o.Kind != p.Kind {
			parts = append(parts, fmt.Sprintf("`%s` is now %s", o.Name, kindName(p.Kind)))
		}
		if normType(o.Type) != normType(p.Type) && o.Type != "" && p.Type != "" {
			parts = append(parts, fmt.Sprintf("`%s`: %s → %s", o.Name, o.Type, p.Type))
		}
	}
	// Order of the parameters both lists have.
	var a, b []string
	for _, o := range old.Params {
		if hasName(new.Params, o.Name) {
			a = append(a, o.Name)
		}
	}
	for _, p := range new.Params {
		if hasName(old.Params, p.Name) {
			b = append(b, p.Name)
		}
	}
	if strings.Join(a, ",") != strings.Join(b, ",") {
		moved = true
	}
	if moved {
		parts = append(parts, "parameters reordered")
	}
	if old.Results >= 0 && new.Results >= 0 {
		if old.Results != new.Results {
			parts = append(parts, fmt.Sprintf("results: %d → %d", old.Results, new.Results))
		} else if normType(old.ResultTypes) != normType(new.ResultTypes) {
			parts = append(parts, fmt.Sprintf("results: %s → %s", orNone(old.ResultTypes), orNone(new.ResultTypes)))
		}
	}
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func kindName(k Kind) string {
	switch k {
	case PosOnly:
		return "positional-only"
	case KwOnly:
		return "keyword-only"
	case Var:
		return "variadic"
	case VarKw:
		return "a **kwargs parameter"
	}
	return "positional or keyword"
}

func hasName(ps []Param, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

func normType(t string) string { return strings.Join(strings.Fields(t), "") }

// Check decides whether call, which fit old, fits new; the reason says
// why not (or why it cannot tell), naming the function as name.
//
// A call that did not fit old either is not this change's doing: it counts
// as fine. When new only adds optional parameters to old (in Python, also
// keyword-only ones; in Go, a trailing variadic), every call that fit old
// fits new, unpacked arguments included.
func Check(old, new Sig, call Call, name string) (Verdict, string) {
	if !new.OK {
		return Unknown, "its new parameter list could not be read"
	}
	if old.OK && addsOnlyOptional(old, new) {
		return Fine, ""
	}
	v, why := check(old, new, call, name)
	if v == Breaks && old.OK {
		if was, _ := check(old, old, call, name); was == Breaks {
			return Fine, ""
		}
	}
	return v, why
}

// Fits checks call against sig alone (no earlier signature): Breaks when
// the arguments cannot bind to its parameters, Unknown when sig was not
// read or the call unpacks its arguments.
func Fits(sig Sig, call Call) Verdict {
	if !sig.OK {
		return Unknown
	}
	v, _ := check(Sig{Lang: sig.Lang, Results: -1}, sig, call, "")
	return v
}

// Compatible reports whether every call that fit old fits new, whatever
// its form: new only adds optional parameters (see Check).
func Compatible(old, new Sig) bool { return old.OK && new.OK && addsOnlyOptional(old, new) }

func check(old, new Sig, call Call, name string) (Verdict, string) {
	switch new.Lang {
	case "python":
		return checkPython(new, call, name)
	case "go":
		return checkGo(old, new, call, name)
	default:
		return checkJS(new, call, name)
	}
}

// addsOnlyOptional reports whether new is old with optional parameters
// added: the old ones keep their names, kinds, defaults, types and order,
// and every new one is optional; and a Go function keeps its results.
func addsOnlyOptional(old, new Sig) bool {
	if old.Results != new.Results || normType(old.ResultTypes) != normType(new.ResultTypes) {
		return false
	}
	j := 0
	for _, p := range new.Params {
		if j < len(old.Params) && samePara(old.Params[j], p) {
			j++
			continue
		}
		switch {
		case new.Lang == "go":
			// Only a trailing variadic keeps Go calls compiling.
			if p.Kind != Var || j != len(old.Params) {
				return false
			}
		case p.Optional || p.Kind == VarKw:
		case p.Kind == Var && new.Lang != "python":
		default:
			return false
		}
	}
	return j == len(old.Params)
}

func samePara(a, b Param) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Optional == b.Optional && normType(a.Type) == normType(b.Type)
}

// required lists the names of the parameters a call must supply.
func required(ps []Param, kinds ...Kind) []string {
	var out []string
	for _, p := range ps {
		if p.Optional || p.Kind == Var || p.Kind == VarKw {
			continue
		}
		for _, k := range kinds {
			if p.Kind == k {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

// args is "1 positional argument", "2 positional arguments".
func args(n int) string {
	return words.Count(n, "positional argument", "positional arguments")
}

func checkPython(new Sig, call Call, name string) (Verdict, string) {
	ps := new.Params
	if call.Bound && len(ps) > 0 && (ps[0].Kind == Normal || ps[0].Kind == PosOnly) {
		ps = ps[1:]
	}
	filled := map[string]bool{}
	positional := 0
	hasVar, hasVarKw := false, false
	for _, p := range ps {
		switch p.Kind {
		case Normal, PosOnly:
			positional++
		case Var:
			hasVar = true
		case VarKw:
			hasVarKw = true
		}
	}
	if call.Positional > positional && !hasVar {
		return Breaks, fmt.Sprintf("passes %s, %s now takes at most %d", args(call.Positional), name, positional)
	}
	i := 0
	for _, p := range ps {
		if i == call.Positional {
			break
		}
		if p.Kind == Normal || p.Kind == PosOnly {
			filled[p.Name] = true
			i++
		}
	}
	for _, k := range call.Keywords {
		var target *Param
		for j := range ps {
			if ps[j].Name == k && (ps[j].Kind == Normal || ps[j].Kind == KwOnly) {
				target = &ps[j]
			}
		}
		switch {
		case target == nil && !hasVarKw:
			return Breaks, fmt.Sprintf("passes keyword `%s`, which %s no longer takes", k, name)
		case target != nil && filled[k]:
			return Breaks, fmt.Sprintf("passes `%s` both by position and by keyword", k)
		case target != nil:
			filled[k] = true
		}
	}
	if call.Spread || call.KwSpread {
		return Unknown, "unpacks its arguments (*args or **kwargs)"
	}
	var missing []string
	for _, n := range required(ps, Normal, PosOnly, KwOnly) {
		if !filled[n] {
			missing = append(missing, "`"+n+"`")
		}
	}
	if len(missing) > 0 {
		return Breaks, fmt.Sprintf("passes %s%s, %s now also requires %s", args(call.Positional), keywordsNote(call.Keywords), name, strings.Join(missing, ", "))
	}
	return Fine, ""
}

func keywordsNote(ks []string) string {
	if len(ks) == 0 {
		return ""
	}
	return " and " + strings.Join(quote(ks), ", ")
}

func quote(ks []string) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = "`" + k + "`"
	}
	return out
}

func checkJS(new Sig, call Call, name string) (Verdict, string) {
	if call.Spread {
		return Unknown, "spreads its arguments (...xs)"
	}
	need := len(required(new.Params, Normal))
	// Required parameters after an optional one still count up to the last.
	for i := len(new.Params) - 1; i >= 0; i-- {
		p := new.Params[i]
		if p.Kind == Normal && !p.Optional {
			need = i + 1
			break
		}
	}
	max, rest := 0, false
	for _, p := range new.Params {
		if p.Kind == Var {
			rest = true
		} else {
			max++
		}
	}
	if call.Positional < need {
		return Breaks, fmt.Sprintf("passes %s, %s now requires %d (%s)", args(call.Positional), name, need, strings.Join(paramNames(new.Params[:need]), ", "))
	}
	if call.Positional > max && !rest {
		if new.Lang == "typescript" || new.Lang == "tsx" {
			return Breaks, fmt.Sprintf("passes %s, %s now takes at most %d", args(call.Positional), name, max)
		}
		return Unknown, fmt.Sprintf("passes %s, %s now takes %d: the extra one is ignored", args(call.Positional), name, max)
	}
	return Fine, ""
}

func paramNames(ps []Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func checkGo(old, new Sig, call Call, name string) (Verdict, string) {
	np := len(new.Params)
	variadic := np > 0 && new.Params[np-1].Kind == Var
	if !call.Spread {
		switch {
		case variadic && call.Positional < np-1:
			return Breaks, fmt.Sprintf("passes %s, %s now takes at least %d", words.Count(call.Positional, "argument", "arguments"), name, np-1)
		case !variadic && call.Positional != np:
			return Breaks, fmt.Sprintf("passes %s, %s now takes %d", words.Count(call.Positional, "argument", "arguments"), name, np)
		}
	} else if !variadic {
		return Breaks, fmt.Sprintf("passes a slice with ..., %s is no longer variadic", name)
	}
	// Parameter types: a call compiled against the old ones.
	if old.OK {
		for i, p := range new.Params {
			if i >= len(old.Params) {
				break
			}
			o := old.Params[i]
			if normType(o.Type) != normType(p.Type) && !(i == len(old.Params)-1 && o.Kind != Var && p.Kind == Var) {
				return Breaks, fmt.Sprintf("passes an argument of the old type for `%s` (%s → %s)", p.Name, o.Type, p.Type)
			}
		}
	}
	if old.OK && old.Results >= 0 && new.Results >= 0 {
		switch {
		case call.Results == 0:
		case call.Results > 0 && call.Results != new.Results:
			return Breaks, fmt.Sprintf("assigns %s, %s now returns %d", words.Count(call.Results, "result", "results"), name, new.Results)
		case call.Results == -1 && new.Results != 1:
			return Breaks, fmt.Sprintf("uses the result as one value, %s now returns %d", name, new.Results)
		case call.Results != 0 && normType(old.ResultTypes) != normType(new.ResultTypes):
			return Breaks, fmt.Sprintf("uses the results, whose types changed (%s → %s)", orNone(old.ResultTypes), orNone(new.ResultTypes))
		}
	}
	return Fine, ""
}
