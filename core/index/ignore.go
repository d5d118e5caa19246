package index

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// ignoreFiles are read in every directory, in gitignore syntax: git's own,
// and .ccdignore for what ccd alone must not index or serve (secrets,
// generated code) while git keeps it.
var ignoreFiles = []string{".gitignore", ".ccdignore"}

// IsIgnoreFile reports whether a file name is one of ignoreFiles.
func IsIgnoreFile(name string) bool { return name == ".gitignore" || name == ".ccdignore" }

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// ignoreFile holds the rules of one .gitignore, which apply to paths below
// its directory (base, relative to the root; "" for the root).
type ignoreFile struct {
	base  string
	rules []ignoreRule
}

// parseIgnore reads gitignore syntax: comments, blank lines, `!` negation,
// trailing `/` for directories, leading or inner `/` anchoring, `*`, `?`,
// `[...]` and `**`.
func parseIgnore(base string, data []byte) *ignoreFile {
	f := &ignoreFile{base: base}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := trimIgnoreLine(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		expr := globToRegexp(line)
		if anchored {
			expr = "^" + expr + "$"
		} else {
			expr = "(^|/)" + expr + "$"
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			continue // a malformed pattern ignores nothing, as in git
		}
		r.re = re
		f.rules = append(f.rules, r)
	}
	return f
}

// trimIgnoreLine drops trailing whitespace and the CR of CRLF files, but
// keeps a space escaped with a backslash ("name\ " matches "name ").
func trimIgnoreLine(line string) string {
	line = strings.TrimRight(line, "\r")
	for len(line) > 0 {
		last := line[len(line)-1]
		if last != ' ' && last != '\t' {
			break
		}
		if len(line) >= 2 && line[len(line)-2] == '\\' {
			return line[:len(line)-2] + line[len(line)-1:]
		}
		line = line[:len(line)-1]
	}
	return line
}

// classEnd finds the ']' closing a bracket expression that starts at g[0],
// skipping named classes like [:digit:] and a leading ']' or '!]'.
func classEnd(g string) int {
	i := 1
	if i < len(g) && (g[i] == '!' || g[i] == '^') {
		i++
	}
	if i < len(g) && g[i] == ']' {
		i++
	}
	for i < len(g) {
		switch {
		case strings.HasPrefix(g[i:], "[:"):
			j := strings.Index(g[i+2:], ":]")
			if j < 0 {
				return -1
			}
			i += j + 4
		case g[i] == ']':
			return i
		default:
			i++
		}
	}
	return -1
}

func globToRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		atStart := i == 0 || g[i-1] == '/'
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**/") && atStart:
			b.WriteString("(.*/)?")
			i += 2
		case c == '*' && g[i:] == "**" && atStart:
			b.WriteString(".*")
			i++
		case c == '*':
			// A '*' or a '**' inside a name never crosses a '/'.
			b.WriteString("[^/]*")
			for i+1 < len(g) && g[i+1] == '*' {
				i++
			}
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := classEnd(g[i:])
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+j]
			if strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^") {
				// A negated class never matches the separator either.
				class = "^/" + class[1:]
			}
			class = strings.ReplaceAll(class, `\`, `\\`)
			b.WriteString("[" + class + "]")
			i += j
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(string(g[i])))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// match reports whether rel (relative to the root) is ignored or
// re-included by this file; decided is false when no rule matched.
func (f *ignoreFile) match(rel string, isDir bool) (ignored, decided bool) {
	if f.base != "" {
		if !strings.HasPrefix(rel, f.base+"/") {
			return false, false
		}
		rel = rel[len(f.base)+1:]
	}
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := &f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(rel) {
			return !r.negate, true
		}
	}
	return false, false
}

// ignored applies a stack of ignore files, innermost last: the deepest
// file with a matching rule decides.
func ignored(stack []*ignoreFile, rel string, isDir bool) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if ig, ok := stack[i].match(rel, isDir); ok {
			return ig
		}
	}
	return false
}

func readIgnore(absPath, base string) *ignoreFile {
	data, err := os.ReadFile(absPath)
	if err != nil || len(data) == 0 {
		return nil
	}
	return parseIgnore(base, data)
}

// Excluded reports whether discovery would skip rel (slash-separated,
// relative to root): a skipped directory name, or an ignore rule, on rel
// or on any directory above it. isDir says what rel itself is.
func Excluded(root, rel string, isDir bool, skipDirs []string) bool {
	return (&ExcludeCache{}).Excluded(root, rel, isDir, skipDirs)
}

// ExcludeCache answers Excluded without reading the same ignore files again
// and again (a watcher asks once per file event, thousands of times during
// a branch switch). Invalidate it when an ignore file changes. It is safe
// for concurrent use.
type ExcludeCache struct {
	mu    sync.Mutex
	files map[string]*ignoreFile // absolute path → parsed file (nil: none)
}

// Invalidate forgets every cached ignore file.
func (c *ExcludeCache) Invalidate() {
	c.mu.Lock()
	c.files = nil
	c.mu.Unlock()
}

func (c *ExcludeCache) read(abs, base string) *ignoreFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.files[abs]; ok {
		return f
	}
	if c.files == nil {
		c.files = map[string]*ignoreFile{}
	}
	f := readIgnore(abs, base)
	c.files[abs] = f
	return f
}

// Excluded is the cached form of the package function Excluded.
func (c *ExcludeCache) Excluded(root, rel string, isDir bool, skipDirs []string) bool {
	if rel == "" || rel == "." {
		return false
	}
	skip := make(map[string]bool, len(skipDirs))
	for _, s := range skipDirs {
		skip[s] = true
	}
	var stack []*ignoreFile
	if ig := c.read(filepath.Join(root, ".git", "info", "exclude"), ""); ig != nil {
		stack = append(stack, ig)
	}
	for _, name := range ignoreFiles {
		if ig := c.read(filepath.Join(root, name), ""); ig != nil {
			stack = append(stack, ig)
		}
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		cur := strings.Join(parts[:i+1], "/")
		last := i == len(parts)-1
		dir := !last || isDir
		if dir && skip[parts[i]] {
			return true
		}
		if ignored(stack, cur, dir) {
			return true
		}
		if !last {
			for _, name := range ignoreFiles {
				if ig := c.read(filepath.Join(root, filepath.FromSlash(cur), name), cur); ig != nil {
					stack = append(stack, ig)
				}
			}
		}
	}
	return false
}
