package wire

import (
	"strconv"
	"unicode/utf8"
)

// Error is the daemon's error envelope, the body of every non-2xx answer:
// {"code":…,"message":…,"hint":…}.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + "\nHint: " + e.Hint
	}
	return e.Message
}

// Err returns the daemon's error envelope for a non-2xx answer, else nil.
// A body that is not an envelope becomes one quoting the body. It decodes
// exactly as encoding/json would into Error, without linking it.
func (r *Response) Err() error {
	if r.Status < 300 {
		return nil
	}
	e := &Error{Status: r.Status}
	if !decodeEnvelope(r.Body, e) || e.Message == "" {
		e.Code = "http_" + strconv.Itoa(r.Status)
		e.Message = "daemon answered " + strconv.Itoa(r.Status) + ": " + string(trimSpace(r.Body))
	}
	return e
}

// decodeEnvelope fills e from a JSON object the way json.Unmarshal does:
// invalid JSON sets nothing; a known field holding a non-string (other
// than null) is skipped and makes the result false, like Unmarshal's
// type error, while the other fields are still set.
func decodeEnvelope(b []byte, e *Error) bool {
	d := decoder{b: b}
	if !d.value(0) || d.skipSpace() != len(b) {
		return false // a syntax error: Unmarshal sets nothing
	}
	d.i = 0
	d.skipSpace()
	if d.b[d.i] != '{' {
		return false // valid JSON but not an object: a type error
	}
	d.i++
	ok := true
	for {
		if d.b[d.skipSpace()] == '}' {
			return ok
		}
		key := d.str()
		d.skipSpace()
		d.i++ // ':'
		d.skipSpace()
		var field *string
		switch {
		case foldEq(key, "code"):
			field = &e.Code
		case foldEq(key, "message"):
			field = &e.Message
		case foldEq(key, "hint"):
			field = &e.Hint
		}
		switch c := d.b[d.i]; {
		case field != nil && c == '"':
			*field = d.str()
		case field != nil && c == 'n': // null leaves the field as is
			d.value(0)
		default:
			if field != nil {
				ok = false
			}
			d.value(0)
		}
		if d.b[d.skipSpace()] == ',' {
			d.i++
		}
	}
}

// foldEq matches a JSON key to a field name as encoding/json does
// (exactly, else case-insensitively).
func foldEq(key, name string) bool { return key == name || equalFold(key, name) }

// decoder validates and reads JSON; value and str are only called on
// input that value has validated when decoding fields.
type decoder struct {
	b []byte
	i int
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

func (d *decoder) skipSpace() int {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
			continue
		}
		break
	}
	return d.i
}

func (d *decoder) peek() byte {
	if d.skipSpace() < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// value checks one JSON value and moves past it.
func (d *decoder) value(depth int) bool {
	switch c := d.peek(); {
	case (c == '{' || c == '[') && depth >= maxDepth: // depth counts the containers around this one
		return false
	case c == '{':
		d.i++
		if d.peek() == '}' {
			d.i++
			return true
		}
		for {
			if d.peek() != '"' || !d.validString() || d.peek() != ':' {
				return false
			}
			d.i++
			if !d.value(depth + 1) {
				return false
			}
			switch d.peek() {
			case ',':
				d.i++
			case '}':
				d.i++
				return true
			default:
				return false
			}
		}
	case c == '[':
		d.i++
		if d.peek() == ']' {
			d.i++
			return true
		}
		for {
			if !d.value(depth + 1) {
				return false
			}
			switch d.peek() {
			case ',':
				d.i++
			case ']':
				d.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return d.validString()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	return false
}

func (d *decoder) literal(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

func (d *decoder) digits() int {
	n := 0
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

// number checks -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() bool {
	if d.b[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.b) && d.b[d.i] == '0' {
		d.i++
	} else if d.digits() == 0 {
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			return false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			return false
		}
	}
	return true
}

// validString checks a string literal at d.i and moves past it.
func (d *decoder) validString() bool {
	d.i++ // opening quote
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if d.i+1 >= len(d.b) {
				return false
			}
			switch d.b[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i += 2
			case 'u':
				if d.i+6 > len(d.b) || hex4(d.b[d.i+2:d.i+6]) < 0 {
					return false
				}
				d.i += 6
			default:
				return false
			}
		default:
			d.i++
		}
	}
	return false
}

// str decodes the (validated) string literal at d.i, replacing invalid
// UTF-8 and lone surrogates with U+FFFD as encoding/json does.
func (d *decoder) str() string {
	d.i++
	var out []byte
	for {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return string(out)
		case c == '\\':
			esc := d.b[d.i+1]
			d.i += 2
			switch esc {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := rune(hex4(d.b[d.i : d.i+4]))
				d.i += 4
				if utf16Surrogate(r) {
					r2 := rune(-1)
					if d.i+6 <= len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
						r2 = rune(hex4(d.b[d.i+2 : d.i+6]))
					}
					if pair := decodeSurrogates(r, r2); pair != utf8.RuneError {
						d.i += 6
						r = pair
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, esc)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			d.i++
		default:
			r, size := utf8.DecodeRune(d.b[d.i:])
			d.i += size
			out = utf8.AppendRune(out, r) // RuneError for a bad byte
		}
	}
}

func hex4(b []byte) int {
	n := 0
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		n = n<<4 | int(c)
	}
	return n
}

func utf16Surrogate(r rune) bool { return 0xd800 <= r && r < 0xe000 }

// decodeSurrogates joins a high and a low surrogate, else RuneError.
func decodeSurrogates(hi, lo rune) rune {
	if 0xd800 <= hi && hi < 0xdc00 && 0xdc00 <= lo && lo < 0xe000 {
		return (hi-0xd800)<<10 | (lo - 0xdc00) + 0x10000
	}
	return utf8.RuneError
}

// trimSpace trims Unicode white space from both ends, as bytes.TrimSpace
// does.
func trimSpace(b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if !isSpace(r) {
			break
		}
		b = b[size:]
	}
	for len(b) > 0 {
		r, size := utf8.DecodeLastRune(b)
		if !isSpace(r) {
			break
		}
		b = b[:len(b)-size]
	}
	return b
}

// isSpace is unicode.IsSpace: the White_Space property.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}
