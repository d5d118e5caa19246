package wire

import (
	"strconv"
	"strings"
	"testing"
)

// parseResponse parses a whole answer as read up to the end of the
// connection. Truncated or malformed input is an error, never a panic.
func parseResponse(raw []byte) (*Response, error) { return parsePieces(raw, 0) }

// parsePieces feeds raw to a parser at most piece bytes at a time (0: as
// much as its buffer takes), finishing at the end as a closed connection
// would.
func parsePieces(raw []byte, piece int) (*Response, error) {
	p := newParser(MaxBody)
	for len(raw) > 0 {
		sp := p.space()
		if piece > 0 && piece < len(sp) {
			sp = sp[:piece]
		}
		n := copy(sp, raw)
		raw = raw[n:]
		done, err := p.feed(n)
		if err != nil {
			return nil, err
		}
		if done {
			return p.resp, nil
		}
	}
	return p.finish()
}

func TestParseResponse(t *testing.T) {
	env := `{"code":"not_found","message":"nope","hint":"try"}`
	cases := []struct {
		name   string
		raw    string
		status int
		body   string
		header map[string]string
		err    string // a substring of the error; "" for success
	}{
		{name: "content-length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Ccd-Fresh: true\r\n\r\nhello",
			status: 200, body: "hello", header: map[string]string{"content-length": "5", "x-ccd-fresh": "true"}},
		{name: "bytes after the body are ignored", raw: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiTHERE", status: 200, body: "hi"},
		{name: "empty body", raw: "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", status: 204, body: ""},
		{name: "until close", raw: "HTTP/1.1 200 OK\r\n\r\nall of it", status: 200, body: "all of it"},
		{name: "until close, empty", raw: "HTTP/1.1 200 OK\r\n\r\n", status: 200, body: ""},
		{name: "bare LF lines", raw: "HTTP/1.0 200 OK\nContent-Length: 3\n\nabc", status: 200, body: "abc"},
		{name: "no reason phrase", raw: "HTTP/1.1 500\r\nContent-Length: 1\r\n\r\nx", status: 500, body: "x"},
		{name: "header case, spaces and repeats", raw: "HTTP/1.1 200 OK\r\nX-A:  one \r\nx-a: two\r\nNoColon\r\nContent-Length: 0\r\n\r\n",
			status: 200, header: map[string]string{"x-a": "two"}},
		{name: "chunked", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
			status: 200, body: "hello world"},
		{name: "chunked, upper-case hex and name", raw: "HTTP/1.1 200 OK\r\nTRANSFER-ENCODING: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n", status: 200, body: "0123456789"},
		{name: "chunked wins over content-length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", status: 200, body: "ok"},
		{name: "chunked with trailers", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-T: 1\r\n\r\n", status: 200, body: "x"},
		{name: "chunked, bare LF", raw: "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nok\n0\n\n", status: 200, body: "ok"},
		{name: "error envelope", raw: "HTTP/1.1 404 Not Found\r\nContent-Length: " + strconv.Itoa(len(env)) + "\r\n\r\n" + env, status: 404, body: env},

		{name: "nothing at all", raw: "", err: "without answering"},
		{name: "short body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", err: "got 3 of 10 bytes"},
		{name: "bad chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", err: "bad chunk size"},
		{name: "negative chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", err: "bad chunk size"},
		{name: "huge chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", err: "bad chunk size"},
		{name: "chunk without CRLF", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n", err: "not followed by CRLF"},
		{name: "chunked body cut", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", err: "inside a chunked body"},
		{name: "chunked without last chunk", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n", err: "inside a chunked body"},
		{name: "not HTTP", raw: "SSH-2.0-OpenSSH\r\n\r\n", err: "bad status line"},
		{name: "HTTP/2", raw: "HTTP/2 200\r\n\r\n", err: "bad status line"},
		{name: "status not a number", raw: "HTTP/1.1 2x0 OK\r\n\r\n", err: "bad status line"},
		{name: "status too long", raw: "HTTP/1.1 2000 OK\r\n\r\n", err: "bad status line"},
		{name: "status too small", raw: "HTTP/1.1 099 OK\r\n\r\n", err: "bad status line"},
		{name: "status missing", raw: "HTTP/1.1\r\n\r\n", err: "bad status line"},
		{name: "huge length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n", err: "bad content-length"},
		{name: "negative length", raw: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", err: "bad content-length"},
		{name: "length not a number", raw: "HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello", err: "bad content-length"},
		{name: "no headers end", raw: "HTTP/1.1 200 OK\r\nContent-Length: 1", err: "inside the headers"},
		{name: "binary garbage", raw: "\x00\xff\xfe\r\n\r\n\x00", err: "bad status line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Whole, and in pieces as a socket may deliver it: the answer is
			// the same however the bytes arrive.
			for _, piece := range []int{0, 1, 2, 7} {
				r, err := parsePieces([]byte(c.raw), piece)
				if c.err != "" {
					if err == nil || !strings.Contains(err.Error(), c.err) {
						t.Fatalf("pieces of %d: want an error with %q, got %v (%+v)", piece, c.err, err, r)
					}
					continue
				}
				if err != nil {
					t.Fatalf("pieces of %d: %v", piece, err)
				}
				if r.Status != c.status || string(r.Body) != c.body {
					t.Fatalf("pieces of %d: got %d %q, want %d %q", piece, r.Status, r.Body, c.status, c.body)
				}
				for k, v := range c.header {
					if r.Header[k] != v {
						t.Errorf("header %s = %q, want %q (all: %v)", k, r.Header[k], v, r.Header)
					}
				}
			}
		})
	}
}

// TestParseLimits: answers over the limits are errors, not memory.
func TestParseLimits(t *testing.T) {
	p := newParser(10)
	raw := "HTTP/1.1 200 OK\r\n\r\n" + strings.Repeat("x", 11)
	n := copy(p.space(), raw)
	if _, err := p.feed(n); err == nil || !strings.Contains(err.Error(), "over 10 bytes") {
		t.Errorf("until close over the limit: %v", err)
	}
	p = newParser(10)
	n = copy(p.space(), "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n")
	if _, err := p.feed(n); err == nil || !strings.Contains(err.Error(), "over 10 bytes") {
		t.Errorf("chunks over the limit: %v", err)
	}
	if _, err := parseResponse([]byte("HTTP/1.1 200 OK\r\n" + strings.Repeat("X-Pad: yyyyyyyy\r\n", maxHeader/16))); err == nil ||
		!strings.Contains(err.Error(), "headers longer than") {
		t.Errorf("endless headers: %v", err)
	}
}

// TestParseLargeChunked decodes a body of many chunks, which the parser
// compacts as it goes.
func TestParseLargeChunked(t *testing.T) {
	var raw strings.Builder
	var want strings.Builder
	raw.WriteString("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
	for i := 0; i < 3000; i++ {
		chunk := strings.Repeat(string(rune('a'+i%26)), 1+i%300)
		raw.WriteString(strconv.FormatInt(int64(len(chunk)), 16) + "\r\n" + chunk + "\r\n")
		want.WriteString(chunk)
	}
	raw.WriteString("0\r\n\r\n")
	for _, piece := range []int{0, 4093} {
		r, err := parsePieces([]byte(raw.String()), piece)
		if err != nil || string(r.Body) != want.String() {
			t.Fatalf("pieces of %d: %v, body %d bytes, want %d", piece, err, len(r.Body), want.Len())
		}
	}
}

// FuzzParseResponse: any input gives an answer or an error, never a
// panic, and the same however it is split.
func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"HTTP/1.1 404 Not Found\r\n\r\n{\"message\":\"x\"}",
		"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n1;a\nx\n0\n",
	} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, raw []byte, piece int) {
		piece = 1 + (piece&0xff)%64
		r1, err1 := parseResponse(raw)
		r2, err2 := parsePieces(raw, piece)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("whole: %v, pieces of %d: %v", err1, piece, err2)
		}
		if err1 == nil {
			if r1.Status != r2.Status || string(r1.Body) != string(r2.Body) {
				t.Fatalf("whole %d %q, pieces %d %q", r1.Status, r1.Body, r2.Status, r2.Body)
			}
			_ = r1.Err() // must not panic either
		}
	})
}
