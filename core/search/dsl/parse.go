package dsl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds nesting, so hostile input cannot exhaust the stack.
const MaxDepth = 64

// MaxLen bounds the input length in bytes.
const MaxLen = 16 << 10

// Error is a parse error with its position.
type Error struct {
	Offset int    // byte offset into the input
	Line   int    // 1-based
	Column int    // 1-based, in runes
	Msg    string // what went wrong and what was expected
	Input  string
}

// Error renders "query:LINE:COL: MSG" followed by the offending line and a
// caret under the position.
func (e *Error) Error() string {
	lineStart := strings.LastIndexByte(e.Input[:e.Offset], '\n') + 1
	lineEnd := strings.IndexByte(e.Input[e.Offset:], '\n')
	if lineEnd < 0 {
		lineEnd = len(e.Input)
	} else {
		lineEnd += e.Offset
	}
	return fmt.Sprintf("query:%d:%d: %s\n  %s\n  %s^", e.Line, e.Column, e.Msg,
		e.Input[lineStart:lineEnd], strings.Repeat(" ", e.Column-1))
}

// Parse parses one expression; anything after it other than white space is
// an error.
func Parse(input string) (*Expr, error) {
	p := &parser{in: input}
	if len(input) > MaxLen {
		return nil, p.errAt(MaxLen, "query is longer than %d bytes; split it into smaller queries", MaxLen)
	}
	if !utf8.ValidString(input) {
		return nil, p.errAt(invalidAt(input), "query is not valid UTF-8")
	}
	p.skip()
	if p.pos == len(input) {
		return nil, p.errAt(0, "empty query; write an expression such as (grep \"auth\")")
	}
	if input[p.pos] != '(' {
		return nil, p.errAt(p.pos, "expected '(' to start an expression such as (grep \"auth\"), found %s", p.describe())
	}
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.pos < len(input) {
		return nil, p.errAt(p.pos, "unexpected %s after the end of the expression; combine several queries with (union ...) or (intersect ...)", p.describe())
	}
	return e, nil
}

type parser struct {
	in  string
	pos int
}

func invalidAt(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

func (p *parser) errAt(off int, format string, args ...any) *Error {
	if off > len(p.in) {
		off = len(p.in)
	}
	line := 1 + strings.Count(p.in[:off], "\n")
	col := 1 + utf8.RuneCountInString(p.in[strings.LastIndexByte(p.in[:off], '\n')+1:off])
	return &Error{Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Input: p.in}
}

// skip passes white space and ; comments.
func (p *parser) skip() {
	for p.pos < len(p.in) {
		switch c := p.in[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == ';':
			for p.pos < len(p.in) && p.in[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// describe names what is at the current position, for error messages.
func (p *parser) describe() string {
	if p.pos >= len(p.in) {
		return "the end of the query"
	}
	switch c := p.in[p.pos]; c {
	case '(':
		return "'('"
	case ')':
		return "')'"
	case '"':
		return "a string"
	}
	a := p.peekAtom()
	if len(a) > 20 {
		a = a[:20] + "…"
	}
	return strconv.Quote(a)
}

func (p *parser) peekAtom() string {
	i := p.pos
	for i < len(p.in) && !isDelim(p.in[i]) {
		i++
	}
	if i == p.pos {
		_, n := utf8.DecodeRuneInString(p.in[p.pos:])
		return p.in[p.pos : p.pos+n]
	}
	return p.in[p.pos:i]
}

func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == '"' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// expr parses an expression at '('.
func (p *parser) expr(depth int) (*Expr, error) {
	if depth >= MaxDepth {
		return nil, p.errAt(p.pos, "expressions nest deeper than %d levels", MaxDepth)
	}
	start := p.pos
	p.pos++ // '('
	p.skip()
	if p.pos >= len(p.in) || isDelim(p.in[p.pos]) {
		return nil, p.errAt(p.pos, "expected an operator after '(' (one of %s), found %s", opList(), p.describe())
	}
	opPos := p.pos
	name := p.peekAtom()
	p.pos += len(name)
	op := Op(strings.ToLower(name))
	sig, ok := signatures[op]
	if !ok {
		msg := fmt.Sprintf("unknown operator %q", name)
		if s := closest(strings.ToLower(name)); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, p.errAt(opPos, "%s; operators are %s", msg, opList())
	}
	e := &Expr{Op: op, Pos: start}
	for i, k := range sig {
		p.skip()
		switch k {
		case argString:
			s, err := p.str(op, i)
			if err != nil {
				return nil, err
			}
			e.Strs = append(e.Strs, s)
		case argInt:
			n, err := p.integer(op)
			if err != nil {
				return nil, err
			}
			e.N = n
		case argExpr:
			if p.pos >= len(p.in) || p.in[p.pos] != '(' {
				return nil, p.errAt(p.pos, "%s expects a query expression as argument %d, found %s", op, i+1, p.describe())
			}
			sub, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			e.Subs = append(e.Subs, sub)
		case argExprs:
			for {
				p.skip()
				if p.pos < len(p.in) && p.in[p.pos] == ')' {
					break
				}
				if p.pos >= len(p.in) || p.in[p.pos] != '(' {
					return nil, p.errAt(p.pos, "%s expects query expressions, found %s", op, p.describe())
				}
				sub, err := p.expr(depth + 1)
				if err != nil {
					return nil, err
				}
				e.Subs = append(e.Subs, sub)
			}
			if len(e.Subs) == 0 {
				return nil, p.errAt(p.pos, "%s needs at least one query expression", op)
			}
		}
	}
	p.skip()
	if p.pos >= len(p.in) {
		return nil, p.errAt(p.pos, "missing ')' to close the (%s expression opened at column %d", op, p.errAt(start, "").Column)
	}
	if p.in[p.pos] != ')' {
		return nil, p.errAt(p.pos, "too many arguments to %s (it takes %s), found %s", op, usage(op), p.describe())
	}
	p.pos++
	return e, nil
}

// str parses a quoted string or a bare word.
func (p *parser) str(op Op, i int) (string, error) {
	if p.pos >= len(p.in) || p.in[p.pos] == ')' || p.in[p.pos] == '(' {
		return "", p.errAt(p.pos, "%s expects a string as argument %d (usage: %s), found %s", op, i+1, usage(op), p.describe())
	}
	if p.in[p.pos] != '"' {
		a := p.peekAtom()
		p.pos += len(a)
		return a, nil
	}
	start := p.pos
	var b strings.Builder
	p.pos++
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		switch c {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			if p.pos+1 >= len(p.in) {
				return "", p.errAt(p.pos, "unterminated string (started at column %d)", p.errAt(start, "").Column)
			}
			// Go escapes: \" \\ \n \t \r \xHH \uHHHH ..., the ones
			// canonical forms (strconv.Quote) use.
			r, multi, tail, err := strconv.UnquoteChar(p.in[p.pos:], '"')
			if err != nil {
				_, n := utf8.DecodeRuneInString(p.in[p.pos+1:])
				return "", p.errAt(p.pos, "unknown escape \\%s in string; use \\\" \\\\ \\n \\t or \\xHH", p.in[p.pos+1:p.pos+1+n])
			}
			if multi {
				b.WriteRune(r)
			} else {
				b.WriteByte(byte(r))
			}
			p.pos = len(p.in) - len(tail)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", p.errAt(start, "unterminated string: missing closing '\"'")
}

func (p *parser) integer(op Op) (int, error) {
	a := ""
	if p.pos < len(p.in) && !isDelim(p.in[p.pos]) {
		a = p.peekAtom()
	}
	n, err := strconv.Atoi(a)
	if err != nil || n < 1 || n > 10000 {
		return 0, p.errAt(p.pos, "%s expects a whole number from 1 to 10000 as its first argument (usage: %s), found %s", op, usage(op), p.describe())
	}
	p.pos += len(a)
	return n, nil
}

func usage(op Op) string {
	var parts []string
	for _, k := range signatures[op] {
		switch k {
		case argString:
			parts = append(parts, `"text"`)
		case argInt:
			parts = append(parts, "N")
		case argExpr:
			parts = append(parts, "QUERY")
		case argExprs:
			parts = append(parts, "QUERY...")
		}
	}
	return "(" + string(op) + " " + strings.Join(parts, " ") + ")"
}

func opList() string {
	names := make([]string, len(Ops))
	for i, o := range Ops {
		names[i] = string(o)
	}
	return strings.Join(names, ", ")
}

// closest returns the operator nearest to s by edit distance, if close.
func closest(s string) string {
	best, bestD := "", 3
	for _, o := range Ops {
		if d := distance(s, string(o)); d < bestD {
			best, bestD = string(o), d
		}
	}
	return best
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
