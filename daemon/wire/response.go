package wire

import (
	"errors"
	"strconv"
)

// maxHeader bounds the status line and headers of an answer.
const maxHeader = 1 << 20

// Response is an answer read by Call.
type Response struct {
	Status int
	Header map[string]string // lower-case names; the last of repeated ones
	Body   []byte
}

// How an answer's body ends.
const (
	bodyUntilClose = iota
	bodyLength
	bodyChunked
)

// parser reads an answer incrementally: the caller reads into space(),
// reports the count to feed and, at the end of the connection, calls
// finish. Bytes after a complete answer are ignored.
type parser struct {
	buf  []byte
	max  int // body limit
	scan int // where the search for the end of the headers resumes

	resp  *Response // set once the headers are parsed
	start int       // offset of the body in buf
	mode  int
	size  int // Content-Length
	next  int // chunked: offset of the next chunk's size line
	done  bool
}

func newParser(max int) *parser { return &parser{buf: make([]byte, 0, 8192), max: max} }

// space is where the next read goes.
func (p *parser) space() []byte {
	if len(p.buf) == cap(p.buf) {
		p.buf = grow(p.buf, maxHeader+p.max+4096)
	}
	return p.buf[len(p.buf):cap(p.buf)]
}

// feed takes n more bytes written into space() and reports whether the
// answer is complete.
func (p *parser) feed(n int) (bool, error) {
	p.buf = p.buf[:len(p.buf)+n]
	if p.resp == nil {
		end := p.headerEnd()
		if end > maxHeader || (end < 0 && len(p.buf) > maxHeader) {
			return false, errors.New("read answer: headers longer than " + strconv.Itoa(maxHeader) + " bytes")
		}
		if end < 0 {
			return false, nil
		}
		if err := p.parseHeaders(end); err != nil {
			return false, err
		}
	}
	switch p.mode {
	case bodyLength:
		if len(p.buf)-p.start >= p.size {
			p.resp.Body = p.buf[p.start : p.start+p.size : p.start+p.size]
			return true, nil
		}
	case bodyChunked:
		return p.chunks()
	default:
		if len(p.buf)-p.start > p.max {
			return false, errors.New("read answer: body over " + strconv.Itoa(p.max) + " bytes")
		}
	}
	return false, nil
}

// finish completes the answer at the end of the connection.
func (p *parser) finish() (*Response, error) {
	switch {
	case p.resp == nil:
		if len(p.buf) == 0 {
			return nil, errors.New("read answer: the daemon closed the connection without answering")
		}
		return nil, errors.New("read answer: the connection ended inside the headers (" + strconv.Itoa(len(p.buf)) + " bytes)")
	case p.mode == bodyLength:
		return nil, errors.New("read answer body: got " + strconv.Itoa(len(p.buf)-p.start) + " of " + strconv.Itoa(p.size) + " bytes")
	case p.mode == bodyChunked:
		return nil, errors.New("read answer body: the connection ended inside a chunked body")
	}
	p.resp.Body = p.buf[p.start:len(p.buf):len(p.buf)]
	return p.resp, nil
}

// headerEnd is the offset just past the blank line ending the headers,
// or -1 when it has not arrived yet. Lines end in CRLF or a bare LF.
func (p *parser) headerEnd() int {
	b := p.buf
	for i := p.scan; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		if i+1 >= len(b) {
			p.scan = i
			return -1
		}
		switch {
		case b[i+1] == '\n':
			return i + 2
		case b[i+1] == '\r':
			if i+2 >= len(b) {
				p.scan = i
				return -1
			}
			if b[i+2] == '\n' {
				return i + 3
			}
		}
	}
	p.scan = len(b)
	return -1
}

// parseHeaders parses buf[:end] and decides how the body ends.
func (p *parser) parseHeaders(end int) error {
	lines := p.buf[:end]
	line, rest := cutLine(lines)
	status, err := statusCode(line)
	if err != nil {
		return err
	}
	r := &Response{Status: status, Header: map[string]string{}}
	for len(rest) > 0 {
		line, rest = cutLine(rest)
		if len(line) == 0 {
			break
		}
		for i, c := range line {
			if c == ':' {
				r.Header[lower(trim(line[:i]))] = string(trim(line[i+1:]))
				break
			}
		}
	}
	p.resp, p.start, p.next = r, end, end
	switch te, cl := r.Header["transfer-encoding"], r.Header["content-length"]; {
	case equalFold(te, "chunked"):
		p.mode = bodyChunked
		p.resp.Body = []byte{}
	case cl != "":
		n, err := strconv.Atoi(cl)
		if err != nil || n < 0 || n > p.max {
			return errors.New("read answer: bad content-length " + quote([]byte(cl)))
		}
		p.mode, p.size = bodyLength, n
		if cap(p.buf) < end+n { // read the body in place, without regrowing
			nb := make([]byte, len(p.buf), end+n)
			copy(nb, p.buf)
			p.buf = nb
		}
	default:
		p.mode = bodyUntilClose
	}
	return nil
}

// statusCode parses "HTTP/1.x NNN reason".
func statusCode(line []byte) (int, error) {
	const proto = "HTTP/1."
	bad := errors.New("read answer: bad status line " + quote(line) + " (is something other than ccd listening on the socket?)")
	if len(line) < len(proto) || string(line[:len(proto)]) != proto {
		return 0, bad
	}
	i := len(proto)
	for i < len(line) && line[i] != ' ' {
		i++
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j-i != 3 || (j < len(line) && line[j] != ' ') {
		return 0, bad
	}
	code := int(line[i]-'0')*100 + int(line[i+1]-'0')*10 + int(line[i+2]-'0')
	if code < 100 {
		return 0, bad
	}
	return code, nil
}

// chunks decodes the chunks that have arrived completely.
func (p *parser) chunks() (bool, error) {
	for {
		b := p.buf[p.next:]
		nl := indexByte(b, '\n')
		if nl < 0 {
			if len(b) > 4096 {
				return false, errors.New("read answer body: chunk size line too long")
			}
			return false, nil
		}
		line := b[:nl]
		if i := indexByte(line, ';'); i >= 0 {
			line = line[:i] // chunk extensions are not used
		}
		size, err := strconv.ParseInt(string(trim(line)), 16, 64)
		if err != nil || size < 0 {
			return false, errors.New("read answer body: bad chunk size " + quote(trim(b[:nl])))
		}
		if size > int64(p.max-len(p.resp.Body)) {
			return false, errors.New("read answer: body over " + strconv.Itoa(p.max) + " bytes")
		}
		if size == 0 {
			return true, nil // trailers, if any, are not needed
		}
		data := b[nl+1:]
		n := int(size)
		if len(data) <= n {
			return false, nil
		}
		eol := 1 // the data ends in CRLF (or a bare LF)
		switch data[n] {
		case '\n':
		case '\r':
			if len(data) < n+2 {
				return false, nil
			}
			if data[n+1] != '\n' {
				return false, errors.New("read answer body: chunk data not followed by CRLF")
			}
			eol = 2
		default:
			return false, errors.New("read answer body: chunk data not followed by CRLF")
		}
		p.resp.Body = append(p.resp.Body, data[:n]...)
		p.next += nl + 1 + n + eol
		if consumed := p.next - p.start; consumed > 64<<10 { // drop decoded chunks
			p.buf = p.buf[:p.start+copy(p.buf[p.start:], p.buf[p.next:])]
			p.next = p.start
		}
	}
}

func cutLine(b []byte) (line, rest []byte) {
	i := indexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, rest
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

func trim(b []byte) []byte {
	for len(b) > 0 && isASCIISpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isASCIISpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func lower(b []byte) string {
	s := []byte(string(b))
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			s[i] = c + 'a' - 'A'
		}
	}
	return string(s)
}

// equalFold compares ASCII strings ignoring case.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// quote quotes at most 80 bytes of b for an error message.
func quote(b []byte) string {
	if len(b) > 80 {
		return strconv.Quote(string(b[:80])) + "…"
	}
	return strconv.Quote(string(b))
}
