package store

import (
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// FuzzDecode: the store's decoders take whatever bytes a damaged or
// hostile database holds and return an error, never panic (run in CI for a
// short time by `just fuzz`; the seeds run with every `go test`).
func FuzzDecode(f *testing.F) {
	f.Add(encodeRecord(nil, rec("a.py", 3)))
	f.Add(encodeRecord(nil, rec("pkg/b.go", 0)))
	g := graph.New([]*graph.Node{
		{ID: "a.go", Kind: graph.Module, Path: "a.go", Lang: "go"},
		{ID: "a.go::F", Kind: graph.Func, Name: "F", Path: "a.go", Lang: "go", StartLine: 3, EndLine: 5},
	}, []graph.EdgeSpec{{From: "a.go", To: "a.go::F", Type: graph.Contains}, {From: "a.go::F", To: "a.go::F", Type: graph.Call, Confidence: graph.Resolved, Line: 4}})
	f.Add(encodeGraph(g))
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := decodeRecord(b); err == nil && r.Facts == nil {
			t.Fatalf("decoded a record without facts and no error")
		}
		decodeGraph(b)
	})
}
