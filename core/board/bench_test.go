package board

import (
	"fmt"
	"io"
	"testing"
)

// bigBoard has 1000 claims, 1000 decisions, 100 impacts of 50 nodes.
func bigBoard() *Board {
	b := New()
	b.Init(project(), archMetrics)
	for i := range 100 {
		var callers []string
		for j := range 49 {
			callers = append(callers, fmt.Sprintf("m%d.py::c%d", i, j))
		}
		impactOf(b, 1, fmt.Sprintf("m%d.py::f", i), callers...)
	}
	for i := range 1000 {
		b.Claim(Finding, fmt.Sprintf("finding number %d about the code", i))
		b.Mark(MarkSpec{Node: ref(fmt.Sprintf("m%d.py::c%d", i%100, i%49)), Text: "verified"})
	}
	return b
}

func BenchmarkMarshal(b *testing.B) {
	brd := bigBoard()
	data, _ := brd.Marshal()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := brd.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	data, _ := bigBoard().Marshal()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteState(b *testing.B) {
	brd := bigBoard()
	for b.Loop() {
		if err := brd.WriteState(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMark(b *testing.B) {
	brd := bigBoard()
	i := 0
	for b.Loop() {
		brd.Mark(MarkSpec{Node: ref(fmt.Sprintf("m%d.py::c%d", i%100, i%49))})
		i++
	}
}
