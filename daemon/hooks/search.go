package hooks

import (
	"path"
	"regexp"
	"strings"
)

// ident matches what a search for one symbol looks like once regex and
// keyword decoration is stripped: a name, optionally qualified once.
var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// declPrefix strips the declaration keywords people put in front of a name
// they grep for ("def parse", "func (s *Server) Serve", "class Foo").
var declPrefix = regexp.MustCompile(`^(?:async\s+def|def|func(?:\s*\([^)]*\))?|fn|function|class|struct|interface|type|trait|impl|module|pub\s+fn|sub|proc)\s+`)

// SearchIdent returns the identifier a search pattern looks for, or "" when
// the pattern is not about one identifier (a phrase, an alternation, a
// regex with classes, a name shorter than 3 characters).
func SearchIdent(pattern string) string {
	p := strings.TrimSpace(pattern)
	p = strings.TrimPrefix(p, "^")
	p = strings.TrimSuffix(p, "$")
	p = strings.ReplaceAll(p, `\b`, "")
	p = strings.ReplaceAll(p, `\<`, "")
	p = strings.ReplaceAll(p, `\>`, "")
	p = strings.ReplaceAll(p, `\s+`, " ")
	p = strings.ReplaceAll(p, `\s*`, " ")
	p = strings.ReplaceAll(p, `\s`, " ")
	p = strings.TrimSpace(p)
	p = declPrefix.ReplaceAllString(p, "")
	for _, suf := range []string{`\(`, `(`, `\s*\(`, ` (`, `::`, `:`} {
		p = strings.TrimSuffix(p, suf)
	}
	p = strings.ReplaceAll(p, `\.`, ".")
	p = strings.TrimSpace(p)
	if len(p) < 3 || !ident.MatchString(p) {
		return ""
	}
	return p
}

// GlobIdent returns the identifier in a file-name glob ("**/*Serve*.go" →
// "Serve"), or "".
func GlobIdent(glob string) string {
	base := path.Base(strings.TrimSpace(glob))
	if i := strings.Index(base, "."); i > 0 {
		base = base[:i]
	}
	base = strings.Trim(base, "*?")
	if strings.ContainsAny(base, "*?[]{}") {
		return ""
	}
	return SearchIdent(base)
}

// searchTools are the commands whose first operand is a search pattern.
var searchTools = map[string]bool{"rg": true, "grep": true, "egrep": true, "fgrep": true, "ag": true, "ack": true, "ack-grep": true}

// valueFlags take the next word as their value (for the search tools).
var valueFlags = map[string]bool{
	"-g": true, "--glob": true, "-t": true, "--type": true, "-T": true, "--type-not": true,
	"-A": true, "-B": true, "-C": true, "-m": true, "--max-count": true, "-f": true, "--file": true,
	"--include": true, "--exclude": true, "--exclude-dir": true, "-d": true, "-D": true,
	"--color": true, "--colour": true, "-j": true, "--threads": true, "-M": true, "--max-columns": true,
	"--ignore-file": true, "--pre": true, "--sort": true, "--sortr": true, "--encoding": true,
}

// BashSearch returns the identifier a shell command searches for: the
// pattern of rg/grep/ag/ack/git grep, or the -name of find. "" when the
// command is not a search for one identifier.
func BashSearch(cmd string) string {
	for _, seg := range shellSegments(cmd) {
		words := seg
		// Skip env assignments and wrappers.
		for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") ||
			words[0] == "sudo" || words[0] == "command" || words[0] == "time" || words[0] == "nice") {
			words = words[1:]
		}
		if len(words) < 2 {
			continue
		}
		tool := path.Base(words[0])
		args := words[1:]
		if tool == "git" {
			args = skipGitOptions(args)
			if len(args) == 0 || args[0] != "grep" {
				continue
			}
			tool, args = "grep", args[1:]
		}
		if tool == "find" {
			for i := 0; i+1 < len(args); i++ {
				if args[i] == "-name" || args[i] == "-iname" {
					if id := GlobIdent(args[i+1]); id != "" {
						return id
					}
				}
			}
			continue
		}
		if !searchTools[tool] {
			continue
		}
		if id := grepPattern(args); id != "" {
			return id
		}
	}
	return ""
}

// grepPattern picks the pattern among grep-like arguments.
func grepPattern(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return SearchIdent(args[i+1])
			}
			return ""
		case a == "-e" || a == "--regexp":
			if i+1 < len(args) {
				return SearchIdent(args[i+1])
			}
			return ""
		case strings.HasPrefix(a, "--regexp="):
			return SearchIdent(strings.TrimPrefix(a, "--regexp="))
		case valueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return SearchIdent(a)
		}
	}
	return ""
}

// shellSegments splits a command line into simple commands (at |, ||, &&,
// ;, newlines) of words, honouring single and double quotes and
// backslashes. It is a reader of common search commands, not a shell.
func shellSegments(cmd string) [][]string {
	var segs [][]string
	var words []string
	var cur strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	flushSeg := func() {
		flushWord()
		if len(words) > 0 {
			segs = append(segs, words)
		}
		words = nil
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				cur.WriteString(cmd[i+1:])
				i = len(cmd)
			} else {
				cur.WriteString(cmd[i+1 : i+1+j])
				i += j + 1
			}
		case c == '"':
			inWord = true
			for i++; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(cmd[i])
			}
		case c == '\\' && i+1 < len(cmd):
			inWord = true
			i++
			cur.WriteByte(cmd[i])
		case c == ' ' || c == '\t':
			flushWord()
		case c == '|' || c == ';' || c == '\n' || c == '&' || c == '(' || c == ')':
			flushSeg()
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flushSeg()
	return segs
}

// gitCommand reports whether a shell command runs a git command that
// changes the working tree (clone, checkout, switch, pull, merge, rebase,
// stash, reset, restore), and for clone the directory it creates
// (relative to cwd).
func gitCommand(cmd string) (sub, cloneDir string) {
	for _, seg := range shellSegments(cmd) {
		if len(seg) < 2 || path.Base(seg[0]) != "git" {
			continue
		}
		args := skipGitOptions(seg[1:])
		if len(args) == 0 {
			continue
		}
		switch args[0] {
		case "clone":
			var ops []string
			for i := 1; i < len(args); i++ {
				a := args[i]
				if strings.HasPrefix(a, "-") {
					if a == "-b" || a == "--branch" || a == "--depth" || a == "-o" || a == "--origin" || a == "--reference" || a == "-c" || a == "--config" {
						i++
					}
					continue
				}
				ops = append(ops, a)
			}
			if len(ops) == 0 {
				continue
			}
			if len(ops) >= 2 {
				return "clone", ops[1]
			}
			name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ops[0], "/")), ".git")
			if i := strings.LastIndex(name, ":"); i >= 0 {
				name = name[i+1:]
			}
			return "clone", name
		case "checkout", "switch", "pull", "merge", "rebase", "stash", "reset", "restore", "cherry-pick", "revert", "am":
			return args[0], ""
		}
	}
	return "", ""
}

// skipGitOptions drops git's global options (-C dir, -c k=v, --no-pager
// ...) in front of the subcommand.
func skipGitOptions(args []string) []string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if (args[0] == "-C" || args[0] == "-c") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	return args
}
