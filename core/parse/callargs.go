package parse

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// CallArgs describes the arguments of one call site, as compatibility
// checks of a changed signature need them.
type CallArgs struct {
	Name     string // the callee identifier as written
	Receiver string // its qualifier as written, "" for a bare call
	Line     int    // 1-based line of the call (where the call expression starts)
	New      bool   // a constructor call (`new X()`)
	// Positional counts the positional arguments; Keywords names the
	// keyword arguments (Python).
	Positional int
	Keywords   []string
	// Spread marks an argument list that unpacks a sequence (`*xs`,
	// `...xs`, Go's `xs...`); KwSpread one that unpacks a mapping (`**kw`):
	// how many arguments they make is not known.
	Spread, KwSpread bool
	// Results says what a Go call's results meet: 0 when the call is a
	// statement (results dropped), N when they are assigned to N names,
	// -1 when the call is used as one value.
	Results int
}

// callNodeTypes are the call expressions of each language this reads.
var callNodeTypes = map[string]bool{
	"call": true, "call_expression": true, "new_expression": true,
	"method_invocation": true, "object_creation_expression": true,
}

// CallsOnLine returns the calls that start on a 1-based line of src, a file
// of lang, with their arguments. A file with syntax errors still yields
// the calls the parser recovered.
func (p *Parser) CallsOnLine(lang string, src []byte, line int) ([]CallArgs, error) {
	s, err := p.schema("call site", lang)
	if err != nil {
		return nil, err
	}
	tp := p.tsParser(s, lang)
	tree, err := fullParse(tp, nil, src)
	if err != nil {
		return nil, fmt.Errorf("calls on line %d: %w", line, err)
	}
	defer tree.Close()
	row := uint32(line - 1)
	var out []CallArgs
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.StartPoint().Row > row || n.EndPoint().Row < row {
			return
		}
		if callNodeTypes[n.Type()] && n.StartPoint().Row == row {
			if c, ok := callArgs(lang, n, src); ok {
				c.Line = line
				out = append(out, c)
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(tree.RootNode())
	return out, nil
}

// callArgs reads one call node.
func callArgs(lang string, n *sitter.Node, src []byte) (CallArgs, bool) {
	var c CallArgs
	var fn, args *sitter.Node
	switch n.Type() {
	case "new_expression": // JS/TS
		c.New = true
		fn, args = n.ChildByFieldName("constructor"), n.ChildByFieldName("arguments")
	case "object_creation_expression": // Java
		c.New = true
		fn, args = n.ChildByFieldName("type"), n.ChildByFieldName("arguments")
	case "method_invocation": // Java
		if name := n.ChildByFieldName("name"); name != nil {
			c.Name = name.Content(src)
		}
		if obj := n.ChildByFieldName("object"); obj != nil {
			c.Receiver = obj.Content(src)
		}
		args = n.ChildByFieldName("arguments")
	default:
		fn, args = n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	}
	if fn != nil {
		c.Name, c.Receiver = calleeName(fn, src)
	}
	if c.Name == "" {
		return c, false
	}
	if args != nil {
		countArgs(lang, args, src, &c)
	}
	if lang == "go" {
		c.Results = goResults(n)
	}
	return c, true
}

// calleeName splits a callee expression into its name and qualifier:
// `a.b.f` is f with a.b, `f` is f, `f[int]` and `f<T>` are f.
func calleeName(fn *sitter.Node, src []byte) (name, recv string) {
	switch fn.Type() {
	case "identifier", "type_identifier", "field_identifier", "property_identifier":
		return fn.Content(src), ""
	case "attribute": // Python
		if a := fn.ChildByFieldName("attribute"); a != nil {
			if o := fn.ChildByFieldName("object"); o != nil {
				return a.Content(src), o.Content(src)
			}
			return a.Content(src), ""
		}
	case "selector_expression": // Go
		if f := fn.ChildByFieldName("field"); f != nil {
			if o := fn.ChildByFieldName("operand"); o != nil {
				return f.Content(src), o.Content(src)
			}
		}
	case "member_expression": // JS/TS
		if p := fn.ChildByFieldName("property"); p != nil {
			if o := fn.ChildByFieldName("object"); o != nil {
				return p.Content(src), o.Content(src)
			}
		}
	case "index_expression", "generic_type", "instantiation_expression", "type_instantiation_expression":
		if inner := fn.NamedChild(0); inner != nil {
			return calleeName(inner, src)
		}
	case "scoped_identifier", "scoped_type_identifier": // Rust, Java
		if nm := fn.ChildByFieldName("name"); nm != nil {
			if p := fn.ChildByFieldName("path"); p != nil {
				return nm.Content(src), p.Content(src)
			}
			return nm.Content(src), ""
		}
	}
	text := strings.TrimSpace(fn.Content(src))
	if i := strings.LastIndexAny(text, ".:"); i >= 0 {
		return text[i+1:], strings.TrimRight(text[:i], ".:")
	}
	return text, ""
}

// countArgs fills c's argument counts from an argument list node.
func countArgs(lang string, args *sitter.Node, src []byte, c *CallArgs) {
	if args.Type() == "generator_expression" { // Python f(x for x in xs)
		c.Positional = 1
		return
	}
	for i := 0; i < int(args.ChildCount()); i++ {
		ch := args.Child(i)
		if !ch.IsNamed() {
			if ch.Type() == "..." { // Go f(xs...)
				c.Spread = true
			}
			continue
		}
		switch ch.Type() {
		case "comment":
		case "keyword_argument": // Python
			if nm := ch.ChildByFieldName("name"); nm != nil {
				c.Keywords = append(c.Keywords, nm.Content(src))
			}
		case "list_splat", "spread_element":
			c.Spread = true
		case "dictionary_splat":
			c.KwSpread = true
		case "variadic_argument": // Go (some grammar versions)
			c.Spread = true
			c.Positional++
		default:
			c.Positional++
		}
	}
}

// goResults says what a Go call's results meet (see CallArgs.Results).
func goResults(n *sitter.Node) int {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p == nil {
		return -1
	}
	switch p.Type() {
	case "expression_statement", "go_statement", "defer_statement":
		return 0
	case "expression_list":
		// The right side of an assignment: x, y := f()
		if p.NamedChildCount() == 1 {
			if a := p.Parent(); a != nil {
				switch a.Type() {
				case "short_var_declaration", "assignment_statement":
					if left := a.ChildByFieldName("left"); left != nil && left != p {
						return int(left.NamedChildCount())
					}
				case "var_spec":
					names := 0
					for i := 0; i < int(a.NamedChildCount()); i++ {
						if a.NamedChild(i).Type() == "identifier" {
							names++
						}
					}
					return names
				}
			}
		}
	}
	return -1
}
