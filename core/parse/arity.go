package parse

// pyArity reads the argument list of a Python call that starts after the
// callee, at src[from:], and ends by to: one more than the number of
// positional arguments, or 0 when the list passes a keyword argument,
// unpacks (*xs, **kw) or cannot be read. It scans the text (brackets,
// strings, comments) instead of walking the syntax tree, which would cost
// a trip into C per argument. More than 254 arguments read as 0.
func pyArity(src []byte, from, to int) uint8 {
	if to > len(src) {
		to = len(src)
	}
	i := from
	for i < to && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i >= to || src[i] != '(' {
		return 0
	}
	i++
	args, depth := 0, 0
	pieceStart := true // at the start of an argument: nothing seen yet
	empty := true      // the current argument has no text yet
	for i < to {
		ch := src[i]
		switch {
		case ch == '#':
			for i < to && src[i] != '\n' {
				i++
			}
			continue
		case ch == '\'' || ch == '"':
			end, ok := skipPyString(src, i, to)
			if !ok {
				return 0
			}
			i, empty, pieceStart = end, false, false
			continue
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			if depth == 0 {
				if ch != ')' {
					return 0
				}
				if !empty {
					args++
				}
				if args > 254 {
					return 0
				}
				return uint8(args + 1)
			}
			depth--
		case depth > 0:
		case ch == ',':
			if empty {
				return 0 // f(,) is no call we understand
			}
			args++
			pieceStart, empty = true, true
			i++
			continue
		case ch == '*' && pieceStart:
			return 0 // *xs or **kw
		case ch == '=':
			// name=value at the top of an argument is a keyword; ==, <=,
			// >=, != and := are operators.
			prev := byte(0)
			if i > 0 {
				prev = src[i-1]
			}
			next := byte(0)
			if i+1 < to {
				next = src[i+1]
			}
			if next != '=' && prev != '=' && prev != '<' && prev != '>' && prev != '!' && prev != ':' && isKeywordHead(src, i) {
				return 0
			}
		}
		if ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\\' {
			empty, pieceStart = false, false
		}
		i++
	}
	return 0
}

// isKeywordHead reports whether the text before the "=" at src[eq],
// back to the start of its argument, is a lone identifier (`key=`).
func isKeywordHead(src []byte, eq int) bool {
	j := eq - 1
	for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	end := j
	for j >= 0 && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9' || src[j] >= 0x80) {
		j--
	}
	if j == end {
		return false
	}
	for j >= 0 && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j--
	}
	return j >= 0 && (src[j] == ',' || src[j] == '(')
}

// skipPyString returns the index after the string literal that opens at
// src[i] (a quote; any prefix letters were scanned before it).
func skipPyString(src []byte, i, to int) (int, bool) {
	q := src[i]
	if i+2 < to && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j+2 < to; j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if src[j] == q && src[j+1] == q && src[j+2] == q {
				return j + 3, true
			}
		}
		return 0, false
	}
	for j := i + 1; j < to; j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		case '\n':
			return 0, false
		}
	}
	return 0, false
}
