package search

import (
	"bytes"
	"strings"
)

// extractMarkdown splits a Markdown file into sections (a heading and
// everything up to the next heading of the same or a higher level), fenced
// code blocks and paragraphs. A section's key is its heading path
// ("Install > Linux"); code blocks and paragraphs are keyed by their
// section's path, so editing one section leaves the ids in others alone.
// YAML front matter becomes a code block.
func extractMarkdown(content []byte, li *lineIndex) []piece {
	n := li.lines()
	type open struct {
		level int
		piece int // index into out
	}
	var (
		out     []piece
		stack   []open
		para    = -1 // first line of the paragraph being read, -1 for none
		sectKey string
		sectNm  string
	)
	line := func(i int) []byte { return li.line(content, i) }
	lastNonBlank := func(from, to int) int {
		for to > from && blank(line(to)) {
			to--
		}
		return to
	}
	closeSections := func(level, before int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			p := &out[stack[len(stack)-1].piece]
			p.lineB = lastNonBlank(p.lineA, before)
			p.end = li.end(p.lineB)
			stack = stack[:len(stack)-1]
		}
	}
	endPara := func(to int) {
		if para < 0 {
			return
		}
		p := piece{typ: ntParagraph, key: sectKey + "#p", parent: sectNm, pqual: sectKey, sig: sectKey,
			lineA: para, lineB: to, start: li.start(para), end: li.end(to)}
		p.previewAt = p.start
		out = append(out, p)
		para = -1
	}
	heading := func(level int, text string, from, at int) {
		closeSections(level, from-1)
		var path []string
		parent, pqual := "", ""
		if len(stack) > 0 {
			top := out[stack[len(stack)-1].piece]
			path = append(path, top.key)
			parent, pqual = top.name, top.key
		}
		path = append(path, text)
		key := strings.Join(path, " > ")
		p := piece{typ: ntSection, name: text, key: key, parent: parent, pqual: pqual, sig: key,
			lineA: from, lineB: at, start: li.start(from), end: li.end(at)}
		p.previewAt = p.start
		stack = append(stack, open{level, len(out)})
		out = append(out, p)
		sectKey, sectNm = key, text
	}
	i := 1
	// Front matter.
	if n > 0 && string(bytes.TrimRight(line(1), " \t")) == "---" {
		for j := 2; j <= n; j++ {
			if t := string(bytes.TrimRight(line(j), " \t")); t == "---" || t == "..." {
				p := piece{typ: ntCodeBlock, name: "frontmatter", key: "#frontmatter", sig: "front matter",
					lineA: 1, lineB: j, start: 0, end: li.end(j)}
				p.previewAt = p.start
				out = append(out, p)
				i = j + 1
				break
			}
		}
	}
	for ; i <= n; i++ {
		t := line(i)
		if fence, info := fenceOpen(t); fence != "" {
			endPara(i - 1)
			j := i + 1
			for ; j <= n; j++ {
				if fenceCloses(line(j), fence) {
					break
				}
			}
			j = min(j, n)
			p := piece{typ: ntCodeBlock, name: info, key: sectKey + "#code", parent: sectNm, pqual: sectKey,
				sig: sectKey, lineA: i, lineB: j, start: li.start(i), end: li.end(j)}
			p.previewAt = li.start(min(i+1, j))
			// Index the code, not the fences.
			if j > i+1 {
				p.own = []Span{{li.start(i + 1), li.start(j)}}
				if !fenceCloses(line(j), fence) {
					p.own = []Span{{li.start(i + 1), li.end(j)}}
				}
			}
			out = append(out, p)
			i = j
			continue
		}
		if level, text, ok := atxHeading(t); ok {
			endPara(i - 1)
			heading(level, text, i, i)
			continue
		}
		if blank(t) {
			endPara(i - 1)
			continue
		}
		// Setext heading: a paragraph line underlined with = or -.
		if para >= 0 {
			if level := setextLevel(t); level > 0 {
				var words []string
				for k := para; k < i; k++ {
					words = append(words, strings.TrimSpace(string(line(k))))
				}
				from := para
				para = -1
				heading(level, strings.Join(words, " "), from, i)
				continue
			}
		}
		if para < 0 {
			para = i
		}
	}
	endPara(n)
	closeSections(0, n)
	// A section's own text stops at its first subsection.
	for k := range out {
		p := &out[k]
		if p.typ != ntSection {
			continue
		}
		for _, q := range out[k+1:] {
			if q.typ == ntSection && q.lineA > p.lineA && q.lineA <= p.lineB {
				p.own = []Span{{p.start, q.start}}
				break
			}
		}
	}
	return out
}

// atxHeading recognises "# Title" lines (up to three spaces of indent,
// optional closing hashes).
func atxHeading(t []byte) (int, string, bool) {
	s := string(t)
	trim := strings.TrimLeft(s, " ")
	if len(s)-len(trim) > 3 || !strings.HasPrefix(trim, "#") {
		return 0, "", false
	}
	level := len(trim) - len(strings.TrimLeft(trim, "#"))
	rest := trim[level:]
	if level > 6 || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	rest = strings.TrimSpace(rest)
	if stripped := strings.TrimRight(rest, "#"); stripped == "" || strings.HasSuffix(stripped, " ") {
		rest = strings.TrimSpace(stripped)
	}
	return level, rest, true
}

// setextLevel returns 1 for a "===" underline, 2 for "---", else 0.
func setextLevel(t []byte) int {
	s := strings.TrimSpace(string(t))
	switch {
	case s == "":
		return 0
	case strings.Trim(s, "=") == "":
		return 1
	case strings.Trim(s, "-") == "" && len(s) >= 2:
		return 2
	}
	return 0
}

// fenceOpen recognises ``` and ~~~ fences, returning the fence and the
// info string's first word.
func fenceOpen(t []byte) (string, string) {
	s := string(t)
	trim := strings.TrimLeft(s, " ")
	if len(s)-len(trim) > 3 || len(trim) < 3 {
		return "", ""
	}
	c := trim[0]
	if c != '`' && c != '~' {
		return "", ""
	}
	k := len(trim) - len(strings.TrimLeft(trim, string(c)))
	if k < 3 {
		return "", ""
	}
	info := strings.TrimSpace(trim[k:])
	if c == '`' && strings.Contains(info, "`") {
		return "", ""
	}
	if f := strings.Fields(info); len(f) > 0 {
		info = f[0]
	}
	return trim[:k], info
}

func fenceCloses(t []byte, fence string) bool {
	s := strings.TrimSpace(string(t))
	return strings.HasPrefix(s, fence) && strings.Trim(s, fence[:1]) == ""
}

// isMarkdown tells Markdown files by language or extension.
func isMarkdown(path, lang string) bool {
	if lang == "markdown" {
		return true
	}
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".markdown") || strings.HasSuffix(p, ".mdx")
}
