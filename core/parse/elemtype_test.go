package parse

import "testing"

func TestElemType(t *testing.T) {
	tests := map[string]string{
		"Item[]":                 "Item",
		"Subscriber<T>[]":        "Subscriber",
		"ns.Widget[]":            "ns.Widget",
		"Array<Panel>":           "Panel",
		"list[Node]":             "Node",
		"typing.List['Node']":    "Node",
		": Sequence[Widget]":     "Widget",
		"(A | B)[]":              "",
		"string | number[]":      "",
		"Map<string, Handler>":   "",
		"Record<string, Item>[]": "Record",
		"{ a: number }[]":        "",
		"Item":                   "",
		"Promise<Item>":          "",
	}
	for in, want := range tests {
		if got := ElemType(in); got != want {
			t.Errorf("ElemType(%q) = %q, want %q", in, got, want)
		}
	}
}
