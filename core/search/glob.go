package search

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// globMatcher matches workspace-relative paths against a glob:
//
//	syntax   matches
//	------   -------
//	*        any run of characters except '/'
//	?        one character except '/'
//	**       any run of characters including '/' ("src/**/*.ts" also matches src/a.ts)
//	[abc]    a character class ([!abc] or [^abc] negates)
//	{a,b}    alternatives
//
// A pattern without '/' also matches base names: "*.go" matches every Go
// file at any depth.
type globMatcher struct {
	re       *regexp.Regexp
	baseOnly bool
}

func compileGlob(pattern string) (*globMatcher, error) {
	p := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(pattern), "./"), "/")
	if p == "" {
		return nil, &Error{Code: CodeGlobPattern, Message: "empty glob pattern", Hint: `use **/*.ext style patterns, e.g. "src/**/*.ts"`}
	}
	var b strings.Builder
	b.WriteString("^")
	depth := 0 // inside {…}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '*':
			if i+1 < len(p) && p[i+1] == '*' {
				i++
				if i+1 < len(p) && p[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 || j == 0 && i+2 >= len(p) {
				return nil, globError(pattern, i, "unclosed '['")
			}
			if j == 0 { // "[]...]": a literal ] first
				k := strings.IndexByte(p[i+2:], ']')
				if k < 0 {
					return nil, globError(pattern, i, "unclosed '['")
				}
				j = k + 1
			}
			class := p[i+1 : i+1+j]
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j + 1
		case '{':
			depth++
			b.WriteString("(?:")
		case '}':
			if depth == 0 {
				return nil, globError(pattern, i, "'}' without '{'")
			}
			depth--
			b.WriteString(")")
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth > 0 {
		return nil, globError(pattern, len(p), "unclosed '{'")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, globError(pattern, 0, err.Error())
	}
	return &globMatcher{re: re, baseOnly: !strings.Contains(p, "/")}, nil
}

func globError(pattern string, at int, why string) error {
	return &Error{Code: CodeGlobPattern, Message: fmt.Sprintf("bad glob %q at offset %d: %s", pattern, at, why),
		Hint: `use **/*.ext style patterns, e.g. "src/**/*.ts"`}
}

func (g *globMatcher) match(p string) bool {
	if g.re.MatchString(p) {
		return true
	}
	return g.baseOnly && g.re.MatchString(path.Base(p))
}
