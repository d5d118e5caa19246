package oracle

import (
	"slices"
	"testing"
)

func TestParseCtags(t *testing.T) {
	out := []byte(`{"_type": "ptag", "name": "JSON_OUTPUT_VERSION", "path": "0.0"}
{"_type": "tag", "name": "Router", "path": "./mux.go", "language": "Go", "line": 12, "kind": "struct"}
{"_type": "tag", "name": "routes", "path": "./mux.go", "language": "Go", "line": 14, "kind": "member"}
{"_type": "tag", "name": "AnonymousFunction2fe3f9250100", "path": "lib/app.js", "language": "JavaScript", "line": 130, "kind": "function"}
{"_type": "tag", "name": "onmount", "path": "lib/app.js", "language": "JavaScript", "line": 96, "kind": "class"}
{"_type": "tag", "name": "onmount", "path": "lib/app.js", "language": "JavaScript", "line": 96, "kind": "function"}
{"_type": "tag", "name": "AnyFunc", "path": "types.ts", "language": "TypeScript", "line": 3, "kind": "alias"}
{"_type": "tag", "name": "x", "path": "a.py", "language": "Python", "line": 1, "kind": "variable"}
`)
	tags, err := ParseCtags(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range tags {
		got = append(got, tg.Path+":"+tg.Name)
	}
	want := []string{"mux.go:Router", "lib/app.js:onmount", "types.ts:AnyFunc"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	if _, err := ParseCtags([]byte("{not json\n")); err == nil {
		t.Error("no error for a line that is not JSON")
	}
}

func TestScoreDefs(t *testing.T) {
	node := func(path, label, kind string, line int) Node {
		return Node{ID: path + "::" + label, Kind: kind, Label: label, Path: path, StartLine: line}
	}
	g := &Graph{Nodes: []Node{
		{ID: "a.ts", Kind: "module", Path: "a.ts"},
		node("a.ts", "of", "func", 10), // the implementation
		node("a.ts", "of", "func", 8),  // overload signatures
		node("a.ts", "of", "func", 9),
		node("a.ts", "fn@1", "func", 20), // anonymous: not counted
		node("a.ts", "Box", "class", 30),
		node("b.py", "run", "func", 4), // decorated: starts 2 lines above the def
		node("b.py", "extra", "func", 50),
	}}
	tags := []Tag{
		{Path: "a.ts", Line: 8, Name: "of", Kind: "function", Lang: "TypeScript"},
		{Path: "a.ts", Line: 9, Name: "of", Kind: "function", Lang: "TypeScript"},
		{Path: "a.ts", Line: 10, Name: "of", Kind: "function", Lang: "TypeScript"},
		{Path: "a.ts", Line: 11, Name: "of", Kind: "function", Lang: "TypeScript"}, // a fourth: no node left
		{Path: "a.ts", Line: 30, Name: "Box", Kind: "class", Lang: "TypeScript"},
		{Path: "b.py", Line: 6, Name: "run", Kind: "function", Lang: "Python"},
		{Path: "b.py", Line: 40, Name: "gone", Kind: "function", Lang: "Python"},
		{Path: "c.go", Line: 1, Name: "Box", Kind: "struct", Lang: "Go"}, // another file
	}
	r := ScoreDefs(g, tags)
	if r.Tags != 8 || r.Nodes != 6 || r.Matched != 5 {
		t.Fatalf("tags %d nodes %d matched %d, want 8 6 5", r.Tags, r.Nodes, r.Matched)
	}
	var missed []string
	for _, m := range r.Missed {
		missed = append(missed, m.Path+":"+m.Name)
	}
	if want := []string{"a.ts:of", "b.py:gone", "c.go:Box"}; !slices.Equal(missed, want) {
		t.Errorf("missed %v, want %v", missed, want)
	}
	if got := r.ByKind["TypeScript function"]; got == nil || *got != [2]int{4, 3} {
		t.Errorf("TypeScript function tags/matched = %v, want [4 3]", got)
	}
	if r.Recall() != 5.0/8 || r.Precision() != 5.0/6 {
		t.Errorf("recall %.3f precision %.3f", r.Recall(), r.Precision())
	}
}
