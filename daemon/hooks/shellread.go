package hooks

import (
	"path"
	"strconv"
	"strings"
)

// shellRead is a file a shell command prints, with the lines it prints
// (to is 0 for the whole file, as ReadRange).
type shellRead struct {
	path     string
	from, to int
}

// ShellRead reads a shell command the way an agent without a read tool
// looks at a file (Codex: `sed -n '1,200p' f`, `cat f`, `nl -ba f | sed -n
// '40,80p'`, `head -n 50 f`) and returns the file and lines it prints. ok
// is false when the command is not such a read: the first file printed
// counts.
func ShellRead(cmd string) (p string, from, to int, ok bool) {
	var pending string // a file piped on (nl -ba f | sed -n ...)
	for _, seg := range shellSegments(cmd) {
		words := seg
		for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		r, piped := readWords(path.Base(words[0]), words[1:])
		switch {
		case r.path != "":
			return r.path, r.from, r.to, true
		case piped != "":
			pending = piped
		case r.from > 0 && pending != "":
			return pending, r.from, r.to, true
		default:
			if pending != "" {
				return "", 0, 0, false // piped into something else (grep, wc)
			}
		}
	}
	if pending != "" {
		return pending, 1, 0, true // cat f, nl -ba f: all of it
	}
	return "", 0, 0, false
}

// readWords reads one simple command: the file it prints and its lines,
// or (piped) the file it numbers for the next command of a pipe, or only
// a line range (sed -n 'A,Bp' on its input).
func readWords(tool string, args []string) (r shellRead, piped string) {
	var files []string
	switch tool {
	case "cat", "nl", "bat", "batcat", "less", "more":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") || a == "-" {
				files = append(files, a)
			}
		}
		if len(files) != 1 || files[0] == "-" {
			return shellRead{}, ""
		}
		if tool == "nl" || tool == "cat" {
			// Often the head of a pipe that picks the lines (sed -n, head).
			return shellRead{}, files[0]
		}
		return shellRead{path: files[0], from: 1}, ""
	case "head":
		n := 10
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-n" && i+1 < len(args):
				n, _ = strconv.Atoi(args[i+1])
				i++
			case strings.HasPrefix(a, "-n"):
				n, _ = strconv.Atoi(a[2:])
			case strings.HasPrefix(a, "-") && len(a) > 1:
				if v, err := strconv.Atoi(a[1:]); err == nil {
					n = v
				}
			default:
				files = append(files, a)
			}
		}
		if n <= 0 || len(files) > 1 {
			return shellRead{}, ""
		}
		if len(files) == 0 {
			return shellRead{from: 1, to: n}, ""
		}
		return shellRead{path: files[0], from: 1, to: n}, ""
	case "sed":
		quiet := false
		var script string
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-n" || a == "--quiet" || a == "--silent":
				quiet = true
			case a == "-e" && i+1 < len(args):
				script = args[i+1]
				i++
			case strings.HasPrefix(a, "-"):
				if strings.Contains(a, "i") {
					return shellRead{}, "" // an in-place edit, not a read
				}
				if strings.Contains(a, "n") {
					quiet = true
				}
			case script == "":
				script = a
			default:
				files = append(files, a)
			}
		}
		from, to, ok := sedRange(script)
		if !quiet || !ok || len(files) > 1 {
			return shellRead{}, ""
		}
		if len(files) == 0 {
			return shellRead{from: from, to: to}, ""
		}
		return shellRead{path: files[0], from: from, to: to}, ""
	}
	return shellRead{}, ""
}

// sedRange reads a sed script that prints one line range: "A,Bp" or "Ap".
func sedRange(s string) (from, to int, ok bool) {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, "p") {
		return 0, 0, false
	}
	s = strings.TrimSuffix(s, "p")
	a, b, two := strings.Cut(s, ",")
	from, err := strconv.Atoi(a)
	if err != nil || from < 1 {
		return 0, 0, false
	}
	if !two {
		return from, from, true
	}
	if b == "$" {
		if from == 1 {
			return 1, 0, true
		}
		return from, from + 2000 - 1, true
	}
	to, err = strconv.Atoi(b)
	if err != nil || to < from {
		return 0, 0, false
	}
	return from, to, true
}
