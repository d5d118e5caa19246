package render

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
)

// bandRows is how many rows are filtered and compressed as one piece.
// Pieces are compressed in parallel and joined into one zlib stream; the
// band size is fixed so that the bytes never depend on the core count.
const bandRows = 128

// encodePNG writes img as an 8-bit PNG: RGB when every pixel is opaque
// (pictures always are), else RGBA. It is a lean replacement for
// image/png's encoder, which tries all five row filters on every row and
// compresses on one core: flat diagrams compress about as well with a
// cheap choice between "up" and "sub", and bands of rows compress in
// parallel (each band a run of deflate blocks ending on a byte boundary,
// as pigz does).
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if width <= 0 || height <= 0 {
		return fmt.Errorf("encode png: empty %dx%d image", width, height)
	}
	opaque := img.Opaque()
	bpp := 4
	colorType := byte(6)
	if opaque {
		bpp, colorType = 3, 2
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, colorType // bit depth, colour type; the rest are 0
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return err
	}

	bands := make([]pngBand, (height+bandRows-1)/bandRows)
	next := make(chan int, len(bands))
	for i := range bands {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for k := 0; k < min(runtime.GOMAXPROCS(0), len(bands)); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			enc := newBandEncoder(width, bpp)
			defer enc.release()
			for i := range next {
				y0 := b.Min.Y + i*bandRows
				y1 := min(y0+bandRows, b.Max.Y)
				bands[i] = enc.encode(img, y0, y1, opaque, i == len(bands)-1)
			}
		}()
	}
	wg.Wait()

	cw := &chunkWriter{w: bw, buf: make([]byte, 0, 256<<10)}
	// zlib header: deflate, 32K window, fastest level; check bits make
	// the 16-bit value a multiple of 31.
	cw.Write([]byte{0x78, 0x01})
	sum := uint32(1)
	for _, band := range bands {
		if band.err != nil {
			return fmt.Errorf("encode png: %w", band.err)
		}
		cw.Write(band.data.Bytes())
		sum = adler32Combine(sum, band.adler, band.n)
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	cw.Write(tail[:])
	if err := cw.flush(); err != nil {
		return err
	}
	if cw.err != nil {
		return cw.err
	}
	if err := writeChunk(bw, "IEND", nil); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// pngBand is one band's deflate data, the Adler-32 of its uncompressed
// (filtered) bytes and their count.
type pngBand struct {
	data  bytes.Buffer
	adler uint32
	n     int
	err   error
}

// bandEncoder filters and compresses bands; one per goroutine.
type bandEncoder struct {
	bpp       int
	cur, prev []byte
	up, sub   []byte
	fw        *flate.Writer
	rowLen    int
	zeroes    []byte
}

func newBandEncoder(width, bpp int) *bandEncoder {
	n := width * bpp
	e := &bandEncoder{bpp: bpp, rowLen: n, cur: make([]byte, n), prev: make([]byte, n),
		up: make([]byte, 1+n), sub: make([]byte, 1+n), zeroes: make([]byte, n)}
	e.up[0], e.sub[0] = 2, 1
	if fw, ok := flatePool.Get().(*flate.Writer); ok {
		e.fw = fw
	} else {
		e.fw, _ = flate.NewWriter(io.Discard, flate.BestSpeed) // BestSpeed is a valid level
	}
	return e
}

// flatePool recycles compressors: each holds hundreds of kilobytes of
// tables, too much garbage to make per band.
var flatePool sync.Pool

func (e *bandEncoder) release() {
	e.fw.Reset(io.Discard)
	flatePool.Put(e.fw)
	e.fw = nil
}

// row copies image row y into dst as RGB or RGBA bytes.
func (e *bandEncoder) row(img *image.RGBA, y int, opaque bool, dst []byte) {
	src := img.Pix[img.PixOffset(img.Rect.Min.X, y):]
	if !opaque {
		// PNG stores straight alpha; image.RGBA is premultiplied.
		for i := 0; i < e.rowLen; i += 4 {
			r, g, b, a := src[i], src[i+1], src[i+2], src[i+3]
			if a != 0 && a != 0xff {
				r = uint8((uint32(r)*0xff + uint32(a)/2) / uint32(a))
				g = uint8((uint32(g)*0xff + uint32(a)/2) / uint32(a))
				b = uint8((uint32(b)*0xff + uint32(a)/2) / uint32(a))
			}
			dst[i], dst[i+1], dst[i+2], dst[i+3] = r, g, b, a
		}
		return
	}
	for x, i := 0, 0; i < e.rowLen; x, i = x+4, i+3 {
		dst[i], dst[i+1], dst[i+2] = src[x], src[x+1], src[x+2]
	}
}

func (e *bandEncoder) encode(img *image.RGBA, y0, y1 int, opaque, last bool) pngBand {
	var band pngBand
	e.fw.Reset(&band.data)
	sum := adler32.New()
	if y0 > img.Rect.Min.Y {
		e.row(img, y0-1, opaque, e.prev)
	} else {
		copy(e.prev, e.zeroes)
	}
	bpp := e.bpp
	for y := y0; y < y1; y++ {
		e.row(img, y, opaque, e.cur)
		// Score each filter by the sum of |byte| (as signed), the usual
		// estimate of how well a row will compress.
		su, ss := 0, 0
		u, sb := e.up[1:1+e.rowLen], e.sub[1:1+e.rowLen]
		for i := 0; i < bpp; i++ {
			u[i] = e.cur[i] - e.prev[i]
			sb[i] = e.cur[i]
			su += absSigned(u[i])
			ss += absSigned(sb[i])
		}
		left := e.cur[:e.rowLen-bpp]
		c, p := e.cur[bpp:], e.prev[bpp:]
		u, sb = u[bpp:], sb[bpp:]
		for i := range c {
			du, ds := c[i]-p[i], c[i]-left[i]
			u[i], sb[i] = du, ds
			su += absSigned(du)
			ss += absSigned(ds)
		}
		row := e.up
		if ss < su {
			row = e.sub
		}
		sum.Write(row)
		band.n += len(row)
		if _, err := e.fw.Write(row); err != nil {
			band.err = err
			return band
		}
		e.cur, e.prev = e.prev, e.cur
	}
	// Flush ends the band on a byte boundary without the final-block bit;
	// only the last band closes the stream.
	if last {
		band.err = e.fw.Close()
	} else {
		band.err = e.fw.Flush()
	}
	band.adler = sum.Sum32()
	return band
}

// absSigned is |b| with b read as a signed byte.
func absSigned(b byte) int {
	x := int(int8(b))
	m := x >> 63 // -1 when negative, else 0
	return (x ^ m) - m
}

// adler32Combine returns the Adler-32 of A followed by B from the sums of
// A and of B and the length of B (the arithmetic of zlib's
// adler32_combine).
func adler32Combine(a, b uint32, lenB int) uint32 {
	const base = 65521
	rem := uint32(lenB % base)
	sum1 := a & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (b & 0xffff) + base - 1
	sum2 += (a >> 16) + (b >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}

func writeChunk(w io.Writer, typ string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, p := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(p); err != nil {
			return fmt.Errorf("encode png: write %s: %w", typ, err)
		}
	}
	return nil
}

// chunkWriter cuts the zlib stream into IDAT chunks. It remembers the
// first error, so callers may check once at the end.
type chunkWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && c.err == nil {
		room := cap(c.buf) - len(c.buf)
		k := min(room, len(p))
		c.buf = append(c.buf, p[:k]...)
		p = p[k:]
		if len(c.buf) == cap(c.buf) {
			c.err = c.flush()
		}
	}
	return n, c.err
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	err := writeChunk(c.w, "IDAT", c.buf)
	c.buf = c.buf[:0]
	return err
}
