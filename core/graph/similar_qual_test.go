package graph

import "testing"

// TestSimilarQualifiedQuery: the qualifier of a misspelled qualified name
// decides between same-named methods of different owners.
func TestSimilarQualifiedQuery(t *testing.T) {
	mk := func(id, name, qual string) *Node {
		return &Node{ID: id, Kind: Func, Name: name, Qual: qual, Path: "s.go", StartLine: 1}
	}
	g := New([]*Node{
		mk("s.go::http2serverConn.serve", "serve", "http2serverConn.serve"),
		mk("s.go::conn.serve", "serve", "conn.serve"),
		mk("s.go::Server.Serve", "Serve", "Server.Serve"),
	}, nil)
	for _, q := range []string{"Srve.Serve", "Servr::Serve", "server.serve"} {
		got := g.Similar(q, 3)
		if len(got) == 0 || g.Nodes[got[0].Node].ID != "s.go::Server.Serve" {
			var ids []string
			for _, s := range got {
				ids = append(ids, g.Nodes[s.Node].ID)
			}
			t.Errorf("Similar(%q) = %v, want Server.Serve first", q, ids)
		}
	}
}
