package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// tomlTable is one table of a TOML file setup writes: its header (as
// written between the brackets, e.g. mcp_servers.ccd) and its key = value
// lines.
type tomlTable struct {
	header string
	lines  []string
}

// editTOMLTables rewrites a TOML file (Codex's config.toml) at the level of
// whole tables, keeping every line it does not own byte for byte: the
// tables for which ours reports true are dropped, then add is appended
// (nothing with remove). It refuses a file that defines a table ours
// claims in a form it does not edit (dotted keys, an inline table). The
// old content is backed up first and the new one written through a new
// file, as editJSON does; a file left empty is removed when dropEmpty.
func editTOMLTables(file string, ours func(header string) bool, conflict func(section, line string) bool,
	add []tomlTable, dropEmpty bool) (bool, error) {
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", file, err)
	}
	var out []string
	section, dropping := "", false
	lines := strings.Split(string(old), "\n")
	if len(old) == 0 {
		lines = nil
	}
	for _, line := range lines {
		if h, ok := tomlHeader(line); ok {
			section, dropping = h, ours(h)
			if dropping {
				continue
			}
		} else if !dropping && conflict != nil && conflict(section, strings.TrimSpace(line)) {
			return false, fmt.Errorf("%s defines %q in a form setup does not edit (a dotted key or inline table): "+
				"move it into its own [table] or delete it, then run setup again", file, strings.TrimSpace(line))
		}
		if !dropping {
			out = append(out, line)
		}
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	for _, t := range add {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, "["+t.header+"]")
		out = append(out, t.lines...)
	}
	text := strings.Join(out, "\n")
	if text != "" {
		text += "\n"
	}
	if bytes.Equal([]byte(text), old) {
		return false, nil
	}
	if old != nil {
		if err := backup(file, old); err != nil {
			return false, err
		}
	}
	if text == "" && dropEmpty {
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("remove %s: %w", file, err)
		}
		return old != nil, nil
	}
	if err := os.MkdirAll(parentDir(file), 0o755); err != nil {
		return false, err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	return true, replaceFile(file, []byte(text), mode)
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}

// tomlHeader reads a table header line ([a.b] or [[a.b]]) and returns
// its name with the white space outside quotes removed.
func tomlHeader(line string) (string, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") {
		return "", false
	}
	inner := strings.TrimPrefix(s, "[")
	double := strings.HasPrefix(inner, "[")
	inner = strings.TrimPrefix(inner, "[")
	end := -1
	inQuote := byte(0)
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case inQuote != 0:
			if c == '\\' && inQuote == '"' {
				i++
			} else if c == inQuote {
				inQuote = 0
			}
		case c == '"' || c == '\'':
			inQuote = c
		case c == ']':
			end = i
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return "", false
	}
	name := normHeader(inner[:end])
	if double {
		name = "[" + name + "]"
	}
	return name, true
}

// normHeader drops the white space outside quotes of a table name.
func normHeader(s string) string {
	var b strings.Builder
	inQuote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote != 0:
			b.WriteByte(c)
			if c == '\\' && inQuote == '"' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == inQuote {
				inQuote = 0
			}
		case c == '"' || c == '\'':
			inQuote = c
			b.WriteByte(c)
		case c == ' ' || c == '\t':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
