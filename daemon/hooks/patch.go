package hooks

import "strings"

// patchFile is one file of a patch an agent applied (Codex's apply_patch,
// Droid's ApplyPatch, a unified diff): the file, what happened to it, and
// for an update its hunks as (old, new) text pairs, the way an Edit's
// old_string/new_string are.
type patchFile struct {
	path   string
	op     string // add, update, delete
	moveTo string // update: the file's new path when it moved
	pairs  [][2]string
}

// parsePatch reads patch text in either form agents use: the
// "*** Begin Patch" envelope (*** Add File / *** Update File / *** Delete
// File, @@ hunks of " ", "-" and "+" lines, *** Move to), or a unified
// diff (--- a/x, +++ b/x, @@ -l,n +l,n @@). Paths are as written.
func parsePatch(text string) []patchFile {
	if strings.Contains(text, "*** Begin Patch") || strings.Contains(text, "*** Update File:") ||
		strings.Contains(text, "*** Add File:") || strings.Contains(text, "*** Delete File:") {
		return parseEnvelope(text)
	}
	return parseUnified(text)
}

func parseEnvelope(text string) []patchFile {
	var files []patchFile
	var cur *patchFile
	var old, new []string
	inHunk := false
	flush := func() {
		if cur != nil && inHunk && (len(old) > 0 || len(new) > 0) {
			cur.pairs = append(cur.pairs, [2]string{joinLines(old), joinLines(new)})
		}
		old, new, inHunk = nil, nil, false
	}
	start := func(op, p string) {
		flush()
		files = append(files, patchFile{path: strings.TrimSpace(p), op: op})
		cur = &files[len(files)-1]
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			start("add", strings.TrimPrefix(line, "*** Add File: "))
			inHunk = true
		case strings.HasPrefix(line, "*** Update File: "):
			start("update", strings.TrimPrefix(line, "*** Update File: "))
		case strings.HasPrefix(line, "*** Delete File: "):
			start("delete", strings.TrimPrefix(line, "*** Delete File: "))
		case strings.HasPrefix(line, "*** Move to: "):
			if cur != nil {
				cur.moveTo = strings.TrimSpace(strings.TrimPrefix(line, "*** Move to: "))
			}
		case strings.HasPrefix(line, "*** End of File"):
		case strings.HasPrefix(line, "*** "):
			flush()
			cur = nil
		case strings.HasPrefix(line, "@@"):
			if cur != nil && cur.op == "update" {
				flush()
				inHunk = true
			}
		case cur == nil:
		case cur.op == "add":
			if strings.HasPrefix(line, "+") {
				new = append(new, line[1:])
			}
		case cur.op == "update":
			inHunk = true // a hunk may start without @@
			if line == "" {
				line = " " // an empty context line, its space trimmed
			}
			old, new = hunkLine(line, old, new)
		}
	}
	flush()
	return files
}

func parseUnified(text string) []patchFile {
	var files []patchFile
	var cur *patchFile
	var old, new []string
	flush := func() {
		if cur != nil && (len(old) > 0 || len(new) > 0) {
			cur.pairs = append(cur.pairs, [2]string{joinLines(old), joinLines(new)})
		}
		old, new = nil, nil
	}
	var from string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "--- "):
			flush()
			from = diffPath(line[4:])
		case strings.HasPrefix(line, "+++ "):
			to := diffPath(line[4:])
			f := patchFile{path: to, op: "update"}
			switch {
			case from == "":
				f.op = "add"
			case to == "":
				f.path, f.op = from, "delete"
			case from != to:
				f.path, f.moveTo = from, to
			}
			files = append(files, f)
			cur = &files[len(files)-1]
		case strings.HasPrefix(line, "@@"):
			flush()
		case cur != nil:
			old, new = hunkLine(line, old, new)
		}
	}
	flush()
	return files
}

// hunkLine adds one line of a hunk to the old and new texts: "+" to the
// new, "-" to the old, " " (context) to both.
func hunkLine(line string, old, new []string) ([]string, []string) {
	switch {
	case strings.HasPrefix(line, "+"):
		new = append(new, line[1:])
	case strings.HasPrefix(line, "-"):
		old = append(old, line[1:])
	case strings.HasPrefix(line, " "):
		old, new = append(old, line[1:]), append(new, line[1:])
	}
	return old, new
}

// diffPath is the path of a ---/+++ line without its a/ or b/ prefix and
// timestamp; "" for /dev/null.
func diffPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		s = s[2:]
	}
	return s
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}
