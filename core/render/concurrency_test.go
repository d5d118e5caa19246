package render

import (
	"bytes"
	"sync"
	"testing"
)

// TestConcurrentUse draws one picture from several goroutines at once
// (the daemon may serve the same picture twice): every result is the
// same, and -race finds no shared state.
func TestConcurrentUse(t *testing.T) {
	p := Architecture(shopGraph(), "shop", Options{})
	wantPNG, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	wantSVG := p.SVG()
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := p.PNG()
			if err != nil || !bytes.Equal(b, wantPNG) {
				errs <- "PNG differs under concurrent use"
			}
			if !bytes.Equal(p.SVG(), wantSVG) {
				errs <- "SVG differs under concurrent use"
			}
			// New pictures from other goroutines share the parsed fonts.
			if _, err := Board(testBoard(), Options{}).PNG(); err != nil {
				errs <- err.Error()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
