package index

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/parse"
)

// ParseFloor discovers the files of root exactly as Build does and parses
// each with the same number of workers, extracting nothing: the raw
// tree-sitter cost that Build's extraction and resolution are measured
// against. It returns the number of files parsed and the wall time.
func ParseFloor(root string, cfg config.Config) (int, time.Duration, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return 0, 0, fmt.Errorf("floor %s: %w", root, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return 0, 0, fmt.Errorf("floor %s: %w", root, err)
	} else if !st.IsDir() {
		return 0, 0, fmt.Errorf("floor %s: not a directory", root)
	}
	reg, err := parse.Default()
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	d := discover(abs, cfg, reg)
	jobs := make(chan candidate, 256)
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for w := 0; w < max(cfg.Workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := reg.NewParser()
			defer p.Close()
			done := 0
			for c := range jobs {
				src, err := os.ReadFile(c.abs)
				if err != nil || isBinary(src) {
					continue
				}
				if p.ParseOnly(c.lang, src) == nil {
					done++
				}
			}
			mu.Lock()
			n += done
			mu.Unlock()
		}()
	}
	for _, c := range d.files {
		if c.abs != "" {
			jobs <- c
		}
	}
	close(jobs)
	wg.Wait()
	return n, time.Since(t0), nil
}
