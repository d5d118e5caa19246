package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/ccd-dev/ccd/core/graph"
)

var bucketGraph = []byte("graph")

const graphCodecVersion = 2

func encodeGraph(g *graph.Graph) []byte {
	e := &enc{}
	e.uint(graphCodecVersion)
	e.uint(uint64(len(g.Nodes)))
	for _, n := range g.Nodes {
		e.str(n.ID)
		e.uint(uint64(n.Kind))
		e.str(n.Name)
		e.str(n.Qual)
		e.str(n.Path)
		e.str(n.Lang)
		e.int(int64(n.StartLine))
		e.int(int64(n.EndLine))
		e.str(n.Signature)
		e.str(n.Owner)
		e.bool(n.Test)
		e.str(n.Build)
	}
	e.uint(uint64(g.NumEdges()))
	for _, x := range g.AllEdges() {
		e.uint(uint64(x.From))
		e.uint(uint64(x.To))
		e.uint(uint64(x.Type))
		e.uint(uint64(x.Confidence))
		e.uint(uint64(len(x.Lines)))
		for _, l := range x.Lines {
			e.int(int64(l))
		}
		e.str(x.Spec)
	}
	return e.b
}

func decodeGraph(b []byte) (*graph.Graph, error) {
	d := &dec{b: b}
	if v := d.uint(); v != graphCodecVersion {
		return nil, fmt.Errorf("graph codec version %d", v)
	}
	nodes := make([]*graph.Node, d.count())
	for i := range nodes {
		n := &graph.Node{ID: d.str(), Kind: graph.Kind(d.uint()), Name: d.str(), Qual: d.str(), Path: d.str(), Lang: d.str()}
		n.StartLine, n.EndLine = int(d.int()), int(d.int())
		n.Signature, n.Owner = d.str(), d.str()
		n.Test = d.bool()
		n.Build = d.str()
		nodes[i] = n
	}
	edges := make([]graph.Edge, d.count())
	for i := range edges {
		x := &edges[i]
		x.From, x.To = int(d.uint()), int(d.uint())
		x.Type, x.Confidence = graph.EdgeType(d.uint()), graph.Confidence(d.uint())
		if n := d.count(); n > 0 {
			x.Lines = make([]int, n)
			for j := range x.Lines {
				x.Lines[j] = int(d.int())
			}
		}
		x.Spec = d.str()
		if d.err == nil && (x.From >= len(nodes) || x.To >= len(nodes)) {
			return nil, fmt.Errorf("graph edge %d points past the nodes", i)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("graph has %d trailing bytes", len(d.b))
	}
	return graph.FromParts(nodes, edges), nil
}

// SaveGraph stores a resolved graph with the fingerprint of its inputs.
func (s *Store) SaveGraph(fingerprint string, g *graph.Graph) error {
	data := encodeGraph(g)
	return s.with(func(db *bolt.DB) error {
		return db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(bucketGraph)
			if err != nil {
				return err
			}
			if err := b.Put([]byte("data"), data); err != nil {
				return err
			}
			return b.Put([]byte("fingerprint"), []byte(fingerprint))
		})
	})
}

// LoadGraph returns the stored graph and its fingerprint ("" and nil when
// none is stored or it does not decode).
func (s *Store) LoadGraph() (fp string, g *graph.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			fp, g, err = "", nil, fmt.Errorf("load graph: corrupt database: %v", r)
		}
	}()
	var data []byte
	err = s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketGraph)
			if b == nil {
				return nil
			}
			fp = string(b.Get([]byte("fingerprint")))
			data = append([]byte(nil), b.Get([]byte("data"))...)
			return nil
		})
	})
	if err != nil || fp == "" || len(data) == 0 {
		return "", nil, err
	}
	g, err = decodeGraph(data)
	if err != nil {
		return "", nil, fmt.Errorf("load graph: %w", err)
	}
	return fp, g, nil
}
