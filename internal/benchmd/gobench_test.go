package benchmd

import "testing"

const goBenchOut = `goos: linux
goarch: amd64
pkg: github.com/ccd-dev/ccd/core/parse
cpu: AMD EPYC 7B13 64-Core Processor
BenchmarkGoParseOnly-2   	       3	 412345678 ns/op
BenchmarkGoQueryOnly-2   	       3	 512345678 ns/op	        12.50 p50-ms
BenchmarkGoExtract 	       3	 612345678 ns/op	 1024 B/op	       7 allocs/op
    bench_test.go:12: BenchmarkGoExtract logged something
PASS
ok  	github.com/ccd-dev/ccd/core/parse	9.1s
pkg: github.com/ccd-dev/ccd/core/index
BenchmarkFloor/goroot-2 	       1	8100000000 ns/op	      6909 files
`

func TestParseGoBench(t *testing.T) {
	res, err := ParseGoBench(goBenchOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("got %d results: %+v", len(res), res)
	}
	want := []struct {
		pkg, name string
		ns        float64
	}{
		{"github.com/ccd-dev/ccd/core/parse", "BenchmarkGoParseOnly", 412345678},
		{"github.com/ccd-dev/ccd/core/parse", "BenchmarkGoQueryOnly", 512345678},
		{"github.com/ccd-dev/ccd/core/parse", "BenchmarkGoExtract", 612345678},
		{"github.com/ccd-dev/ccd/core/index", "BenchmarkFloor/goroot", 8.1e9},
	}
	for i, w := range want {
		ns, ok := res[i].Get("ns/op")
		if res[i].Pkg != w.pkg || res[i].Name != w.name || !ok || ns != w.ns || res[i].Iters < 1 {
			t.Errorf("result %d = %+v, want %+v", i, res[i], w)
		}
	}
	if v, ok := res[1].Get("p50-ms"); !ok || v != 12.5 {
		t.Errorf("custom metric p50-ms = %v %v", v, ok)
	}
	if v, ok := res[2].Get("allocs/op"); !ok || v != 7 {
		t.Errorf("allocs/op = %v %v", v, ok)
	}
	if _, ok := res[0].Get("B/op"); ok {
		t.Error("B/op reported for a line without it")
	}
	for _, bad := range []string{
		"BenchmarkX-2 3 100 ns/op 5", // a value without a unit
		"BenchmarkX-2 3 fast ns/op",  // not a number
	} {
		if _, err := ParseGoBench(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
