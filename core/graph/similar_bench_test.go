package graph

import (
	"fmt"
	"testing"
)

// BenchmarkSimilar scores a misspelt name against a graph of the size of
// GOROOT/src (~100k functions).
func BenchmarkSimilar(b *testing.B) {
	words := []string{"read", "write", "Request", "handle", "server", "conn", "parse", "Header", "close", "buffer", "encode", "token"}
	var nodes []*Node
	for i := 0; i < 100000; i++ {
		name := words[i%len(words)] + words[(i/len(words))%len(words)] + fmt.Sprint(i%97)
		nodes = append(nodes, &Node{ID: fmt.Sprintf("f%d.go::%s", i/50, name), Kind: Func, Name: name, Qual: name, Path: fmt.Sprintf("f%d.go", i/50)})
	}
	g := New(nodes, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(g.Similar("handleRequst", 10)) == 0 {
			b.Fatal("no suggestions")
		}
	}
}
