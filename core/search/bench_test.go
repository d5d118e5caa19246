package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
)

// corpusFile is one file of a benchmark corpus.
type corpusFile struct {
	path    string
	content []byte
	lang    string
	defs    []facts.Def
}

// loadCorpus parses root with core/index (definitions for code files) and
// reads every other non-binary file under it as text, as the daemon would
// feed the search index.
func loadCorpus(b *testing.B, root string) []corpusFile {
	b.Helper()
	res, err := index.Build(root, config.Default())
	if err != nil {
		b.Fatal(err)
	}
	byPath := map[string]*facts.File{}
	for _, f := range res.Files {
		byPath[f.Path] = f
	}
	var out []corpusFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		c, err := os.ReadFile(p)
		if err != nil || isBinary(c) {
			return nil
		}
		cf := corpusFile{path: rel, content: c}
		if f := byPath[rel]; f != nil {
			cf.lang, cf.defs = f.Lang, f.Defs
		}
		out = append(out, cf)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// cpuTime is the CPU time (user and system) the process has used; on a
// shared machine it is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func benchIndex(b *testing.B, root string) *Index {
	files := loadCorpus(b, root)
	bytes := 0
	for _, f := range files {
		bytes += len(f.content)
	}
	var ix *Index
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		ix = nil
		before := heapInUse()
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		ix = NewWithOptions(Options{Root: root})
		for _, f := range files {
			ix.Update(f.path, f.content, f.lang, f.defs)
		}
		b.ReportMetric(time.Since(t0).Seconds()*1000, "index-ms")
		b.ReportMetric((cpuTime()-c0).Seconds()*1000, "index-cpu-ms")
		b.StopTimer()
		after := heapInUse()
		b.ReportMetric(float64(after-before)/(1<<20), "heap-MB")
		b.StartTimer()
	}
	st := ix.Status()
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(st.Handles), "handles")
	b.ReportMetric(float64(st.Terms), "terms")
	b.ReportMetric(float64(bytes)/(1<<20), "corpus-MB")
	return ix
}

// BenchmarkIndexNetHTTP indexes GOROOT/src/net/http (facts from
// core/index are computed outside the timer).
func BenchmarkIndexNetHTTP(b *testing.B) {
	benchIndex(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"))
}

// benchSink keeps the last benchmark index alive, so -memprofile shows it.
var benchSink *Index

// BenchmarkIndexGOROOT indexes all of GOROOT/src; run with -benchtime 1x.
func BenchmarkIndexGOROOT(b *testing.B) {
	ix := benchIndex(b, filepath.Join(runtime.GOROOT(), "src"))
	benchQueries(b, ix, "goroot")
	benchSink = ix
}

// benchQueries reports query latencies on a built index.
func benchQueries(b *testing.B, ix *Index, label string) {
	qs := []QueryParams{
		{Pattern: "ServeHTTP"},
		{Pattern: "read deadline timeout"},
		{Pattern: "err"},
		{Symbol: "Server", Kind: "definition"},
		{Symbol: "Handler"},
		{Patterns: []string{"tls", "handshake"}, Match: "all"},
		{Pattern: "http*", Glob: "net/**/*.go"},
		{Section: "Overview"},
		{Query: `(intersect (grep "context") (code "Dial"))`},
		{Parent: "Server"},
	}
	var lat []time.Duration
	per := make([][]time.Duration, len(qs))
	for round := 0; round < 5; round++ {
		for i, q := range qs {
			t0 := time.Now()
			if _, err := ix.Query(q, nil); err != nil {
				b.Fatal(err)
			}
			d := time.Since(t0)
			lat = append(lat, d)
			per[i] = append(per[i], d)
		}
	}
	for i, q := range qs {
		sort.Slice(per[i], func(a, b int) bool { return per[i][a] < per[i][b] })
		b.Logf("%s median %v: %+v", label, per[i][len(per[i])/2], q)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, label+"-query-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, label+"-query-p90-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, label+"-query-max-ms")
}

// BenchmarkQueryNetHTTP measures query latency on net/http.
func BenchmarkQueryNetHTTP(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	files := loadCorpus(b, root)
	ix := NewWithOptions(Options{Root: root})
	for _, f := range files {
		ix.Update(f.path, f.content, f.lang, f.defs)
	}
	b.ResetTimer()
	for b.Loop() {
		benchQueries(b, ix, "nethttp")
	}
}

// BenchmarkFirstQueryLazy measures the large-workspace path on GOROOT/src:
// every file is handed to Fill (paths only, no definitions: the chunk
// fallback, as before the graph exists), and a query is asked at once. It
// reports the time to that first answer, the time until the background
// fill completes, and how many files the query indexed itself.
func BenchmarkFirstQueryLazy(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, "/testdata/") {
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() && info.Size() <= 1<<20 {
				rel, _ := filepath.Rel(root, p)
				paths = append(paths, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	for b.Loop() {
		ix := NewWithOptions(Options{Root: root})
		t0 := time.Now()
		if err := ix.Fill(paths); err != nil {
			b.Fatal(err)
		}
		r, err := ix.Query(QueryParams{Pattern: "ServeHTTP"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		first := time.Since(t0)
		pendingAtAnswer := r.PendingFiles
		if err := ix.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		full := time.Since(t0)
		b.ReportMetric(first.Seconds(), "first-answer-s")
		b.ReportMetric(full.Seconds(), "full-fill-s")
		b.ReportMetric(float64(len(paths)), "files")
		b.ReportMetric(float64(pendingAtAnswer), "pending-at-answer")
		b.ReportMetric(float64(len(r.Handles)), "handles-returned")
	}
}
