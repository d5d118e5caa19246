package parse

import "bytes"

// separateSignatures works around a TypeScript grammar gap: a generic
// call signature on its own line in an interface or type literal,
//
//	interface Factory {
//	    <T>(fn: T): T
//	    <T>(name: string, fn: T): T
//	}
//
// is read as type arguments of the type that ends the line before, and
// the parse of the rest of the file falls apart (mobx's action.ts loses
// every definition after it). It returns src with the first indentation
// byte of each such line replaced by ';', which separates the members
// without moving any byte, line or column; nil when no line qualifies.
// The caller keeps the result only if it parses with fewer errors.
func separateSignatures(src []byte) []byte {
	var out []byte
	prev := []byte(nil) // the last line holding code
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		code := bytes.TrimLeft(line, " \t")
		indent := len(line) - len(code)
		switch {
		case len(bytes.TrimSpace(code)) == 0, bytes.HasPrefix(code, []byte("//")),
			bytes.HasPrefix(code, []byte("/*")), bytes.HasPrefix(code, []byte("*")):
			// blank or comment: the line before stays the one that counts
		default:
			if indent > 0 && len(code) > 1 && code[0] == '<' && isIdentStart(code[1]) && endsMember(prev) {
				if out == nil {
					out = bytes.Clone(src)
				}
				out[off] = ';'
			}
			prev = bytes.TrimRight(code, " \t\r")
		}
		off = end + 1
	}
	return out
}

// endsMember reports whether a line of code can end a member of a type:
// it does not continue onto the next line (`,`, `{`, `(`, `|`, `=>`, ...).
func endsMember(line []byte) bool {
	if len(line) == 0 || bytes.HasSuffix(line, []byte("=>")) {
		return false
	}
	switch line[len(line)-1] {
	case ',', ';', '{', '(', '[', '|', '&', '=', ':', '?', '<':
		return false
	}
	return true
}

func isIdentStart(b byte) bool {
	return b == '_' || b == '$' || (b|0x20 >= 'a' && b|0x20 <= 'z')
}
