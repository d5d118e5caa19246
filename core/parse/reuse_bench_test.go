package parse

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkEditServerGo parses GOROOT's net/http/server.go after an edit
// (a statement added to the i-th function, as a save would), from scratch
// ("full") and through a tree cache ("incremental").
func BenchmarkEditServerGo(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Fatal(err)
	}
	var at []int
	for i := 0; i+6 < len(src); {
		j := bytes.Index(src[i:], []byte("\nfunc "))
		if j < 0 {
			break
		}
		i += j + 1
		if k := bytes.IndexByte(src[i:], '\n'); k > 0 && src[i+k-1] == '{' {
			at = append(at, i+k+1)
		}
	}
	edited := func(n int) []byte {
		k := at[n%len(at)]
		return append(append(append([]byte(nil), src[:k]...), fmt.Sprintf("\tprintln(%d)\n", n)...), src[k:]...)
	}
	reg, _ := Default()
	for _, mode := range []string{"full", "incremental"} {
		b.Run(mode, func(b *testing.B) {
			p := reg.NewParser()
			defer p.Close()
			var c *TreeCache
			if mode == "incremental" {
				c = NewTreeCache(0)
				defer c.Close()
				if err := p.Warm(c, "server.go", "go", src); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := p.ParseWith(c, "server.go", "go", edited(i)); err != nil {
					b.Fatal(err)
				}
			}
			if c != nil {
				b.ReportMetric(float64(c.Stats().Incremental)/float64(b.N), "reused/op")
			}
		})
	}
}
