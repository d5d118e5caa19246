package wire

import (
	"bytes"
	"os"
	"testing"
)

// TestFDPipes reads and writes pipes that os.Pipe made non-blocking, so
// the EAGAIN path (waiting with ppoll) is taken.
func TestFDPipes(t *testing.T) {
	data := bytes.Repeat([]byte("event "), 200_000) // 1.2 MB, over a pipe's buffer
	for _, c := range []struct {
		max  int
		want []byte
	}{{len(data) + 10, data}, {len(data), data}, {1000, data[:1000]}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(data)
			w.Close()
		}()
		got, err := FD(r.Fd()).ReadAll(c.max)
		r.Close()
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("max %d: %d bytes, %v; want %d", c.max, len(got), err, len(c.want))
		}
	}

	r, w, _ := os.Pipe()
	defer r.Close()
	got := make(chan []byte)
	go func() {
		var buf bytes.Buffer
		buf.ReadFrom(r)
		got <- buf.Bytes()
	}()
	n, err := FD(w.Fd()).Write(data)
	w.Close()
	if b := <-got; err != nil || n != len(data) || !bytes.Equal(b, data) {
		t.Errorf("write: %d %v, read back %d bytes", n, err, len(b))
	}
	if _, err := FD(-1).ReadAll(10); err == nil {
		t.Errorf("a bad descriptor is not an error")
	}
}
