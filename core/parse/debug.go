package parse

import (
	"context"
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// DebugTree renders the syntax tree of src as an indented s-expression with
// field names and 1-based lines: the view a schema author needs.
func DebugTree(grammar string, src []byte) (string, error) {
	get := grammars[grammar]
	if get == nil {
		return "", fmt.Errorf("no grammar %q", grammar)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(get())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return "", err
	}
	defer tree.Close()
	var b strings.Builder
	var walk func(n *sitter.Node, field string, depth int)
	walk = func(n *sitter.Node, field string, depth int) {
		if !n.IsNamed() {
			return
		}
		b.WriteString(strings.Repeat("  ", depth))
		if field != "" {
			b.WriteString(field + ": ")
		}
		fmt.Fprintf(&b, "(%s L%d", n.Type(), n.StartPoint().Row+1)
		if n.NamedChildCount() == 0 {
			t := n.Content(src)
			if len(t) > 40 {
				t = t[:40] + "…"
			}
			fmt.Fprintf(&b, " %q", t)
		}
		b.WriteString(")\n")
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i), n.FieldNameForChild(i), depth+1)
		}
	}
	walk(tree.RootNode(), "", 0)
	return b.String(), nil
}
