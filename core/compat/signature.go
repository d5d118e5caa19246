package compat

import "strings"

// group returns the text inside the first bracket pair opened by open at
// or after from, and the index just past its close; ok is false when it
// is not closed.
func group(s string, from int, open, close byte) (inner string, end int, ok bool) {
	i := strings.IndexByte(s[from:], open)
	if i < 0 {
		return "", 0, false
	}
	start := from + i
	depth := 0
	var quote byte
	for j := start; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				if c != close {
					return "", 0, false
				}
				return s[start+1 : j], j + 1, true
			}
		}
	}
	return "", 0, false
}

// split cuts a list at its top-level commas (outside brackets, angle
// brackets of generics and strings); empty items are dropped.
func split(s string) []string {
	var out []string
	depth, angle := 0, 0
	var quote byte
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '<':
			angle++
		case c == '>' && angle > 0 && (i == 0 || s[i-1] != '='):
			angle--
		case c == ',' && depth == 0 && angle == 0:
			out = append(out, strings.TrimSpace(s[last:i]))
			last = i + 1
		}
	}
	out = append(out, strings.TrimSpace(s[last:]))
	kept := out[:0]
	for _, x := range out {
		if x != "" {
			kept = append(kept, x)
		}
	}
	return kept
}

// cutTop splits x at the first top-level sep (outside brackets and
// strings).
func cutTop(x string, sep byte) (before, after string, found bool) {
	depth, angle := 0, 0
	var quote byte
	for i := 0; i < len(x); i++ {
		c := x[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '<' && sep != '<':
			angle++
		case c == '>' && angle > 0 && (i == 0 || x[i-1] != '='):
			angle--
		case c == sep && depth == 0 && angle == 0:
			// "==", "<=", ">=", "!=" and "=>" are not an assignment.
			if sep == '=' && ((i+1 < len(x) && (x[i+1] == '=' || x[i+1] == '>')) || (i > 0 && strings.ContainsRune("=<>!", rune(x[i-1])))) {
				continue
			}
			return x[:i], x[i+1:], true
		}
	}
	return x, "", false
}

// parsePython reads `def name(params) -> ret`.
func parsePython(sig string) ([]Param, bool) {
	if rest, ok := strings.CutPrefix(sig, "lambda"); ok && (rest == "" || rest[0] == ' ') {
		// A lambda's signature is its parameter list: `lambda a, b=1`.
		sig = "def _(" + strings.TrimSpace(rest) + ")"
	}
	d := strings.Index(sig, "def ")
	if d < 0 {
		return nil, false
	}
	inner, _, ok := group(sig, d, '(', ')')
	if !ok {
		return nil, false
	}
	var out []Param
	kwOnly := false
	for _, item := range split(inner) {
		switch {
		case item == "/":
			for i := range out {
				if out[i].Kind == Normal {
					out[i].Kind = PosOnly
				}
			}
			continue
		case item == "*":
			kwOnly = true
			continue
		}
		p := Param{Kind: Normal}
		if kwOnly {
			p.Kind = KwOnly
		}
		head, def, hasDef := cutTop(item, '=')
		p.Optional = hasDef && strings.TrimSpace(def) != ""
		name, typ, _ := cutTop(head, ':')
		name, p.Type = strings.TrimSpace(name), strings.TrimSpace(typ)
		switch {
		case strings.HasPrefix(name, "**"):
			p.Kind, name = VarKw, name[2:]
		case strings.HasPrefix(name, "*"):
			p.Kind, name = Var, name[1:]
			kwOnly = true
		}
		p.Name = name
		out = append(out, p)
	}
	return out, true
}

// parseGo reads `func (recv) Name[T any](params) results`.
func parseGo(sig string) (ps []Param, results int, resultTypes string, ok bool) {
	f := strings.Index(sig, "func")
	if f < 0 {
		return nil, -1, "", false
	}
	rest := strings.TrimSpace(sig[f+4:])
	if strings.HasPrefix(rest, "(") { // the receiver
		_, end, ok := group(rest, 0, '(', ')')
		if !ok {
			return nil, -1, "", false
		}
		rest = strings.TrimSpace(rest[end:])
	}
	// The name, then type parameters.
	i := 0
	for i < len(rest) && rest[i] != '(' && rest[i] != '[' {
		i++
	}
	if i < len(rest) && rest[i] == '[' {
		_, end, ok := group(rest, i, '[', ']')
		if !ok {
			return nil, -1, "", false
		}
		i = end
	}
	inner, end, ok := group(rest, i, '(', ')')
	if !ok {
		return nil, -1, "", false
	}
	ps = goParams(inner)
	res := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest[end:]), "{"))
	switch {
	case res == "":
		results = 0
	case strings.HasPrefix(res, "("):
		in, _, ok := group(res, 0, '(', ')')
		if !ok {
			return ps, -1, "", true
		}
		results = len(goParams(in))
		res = in
	default:
		results = 1
	}
	var types []string
	if strings.Contains(res, "(") || results != 1 {
		for _, p := range goParams(res) {
			types = append(types, p.Type)
		}
		resultTypes = strings.Join(types, ", ")
	} else {
		resultTypes = res
	}
	return ps, results, resultTypes, true
}

// goParams reads a Go parameter list: named ("a, b int, c ...string") or
// not ("int, string").
func goParams(inner string) []Param {
	items := split(inner)
	named := false
	for _, it := range items {
		if len(strings.Fields(it)) > 1 || strings.HasPrefix(it, "...") {
			if f := strings.Fields(it); len(f) > 1 {
				named = true
			}
		}
	}
	out := make([]Param, len(items))
	typ := ""
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		p := Param{Kind: Normal}
		if named {
			if f := strings.Fields(it); len(f) > 1 {
				p.Name, typ = f[0], strings.TrimSpace(it[len(f[0]):])
			} else {
				p.Name = it
			}
			p.Type = typ
		} else {
			p.Name, p.Type = "", it
		}
		if strings.HasPrefix(p.Type, "...") {
			p.Kind = Var
		}
		out[i] = p
	}
	for i := range out {
		if out[i].Name == "" {
			out[i].Name = "#" + string(rune('1'+i))
		}
	}
	return out
}

// parseJS reads `function name(params): T`, `async name(params)`,
// `name(params)` (a method) or `constructor(params)`.
func parseJS(sig string) ([]Param, bool) {
	// Skip type parameters before the parameter list.
	i := 0
	for i < len(sig) && sig[i] != '(' {
		if sig[i] == '<' {
			if _, end, ok := angleGroup(sig, i); ok {
				i = end
				continue
			}
		}
		i++
	}
	inner, _, ok := group(sig, i, '(', ')')
	if !ok {
		return nil, false
	}
	var out []Param
	for _, item := range split(inner) {
		p := Param{Kind: Normal}
		head, def, hasDef := cutTop(item, '=')
		p.Optional = hasDef && strings.TrimSpace(def) != ""
		name, typ, _ := cutTop(head, ':')
		name, p.Type = strings.TrimSpace(name), strings.TrimSpace(typ)
		// TypeScript parameter properties and decorators.
		for _, mod := range []string{"public ", "private ", "protected ", "readonly ", "override "} {
			name = strings.TrimSpace(strings.TrimPrefix(name, mod))
		}
		if strings.HasPrefix(name, "...") {
			p.Kind, name = Var, name[3:]
		}
		if strings.HasSuffix(name, "?") {
			p.Optional, name = true, strings.TrimSuffix(name, "?")
		}
		if name == "this" { // TypeScript's this parameter is not passed
			continue
		}
		p.Name = name
		out = append(out, p)
	}
	return out, true
}

// angleGroup skips a balanced <...> starting at i.
func angleGroup(s string, i int) (string, int, bool) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return s[i+1 : j], j + 1, true
			}
		}
	}
	return "", 0, false
}
