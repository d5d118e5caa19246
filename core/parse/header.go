package parse

import "strings"

// extractorVersion changes when the extractor makes different facts from
// the same schemas (SchemaDigest hashes it, so stored facts are remade).
// 2: comments no longer count as part of a signature.
// 3: signatures up to 400 bytes (was 160).
// 5: JS this.m = function is a method of the instances; no bindings to
// functions a pattern named.
// 6: JS named function expressions go by their names; TypeScript overload
// signatures and all type aliases are definitions.
// 7: a callback's receiver says its argument position ("=>operate#0").
// 8: JS fields holding object literals, JSDoc @type on fields.
// 9: const { a } = this binds a to this.a.
// 10: T<A>[] says what an array holds.
// 11: Python tuple unpacking of a call result; tuple returns.
// 12: Python containers under literal keys, straight-line bindings,
// every return statement, call results passed as arguments.
// 13: Go files' build constraints.
const extractorVersion = 13

// commentSyntax is how a language writes comments: its line comment
// marker and whether it has C's block comments.
func commentSyntax(lang string) (line string, block bool) {
	switch lang {
	case "python", "ruby", "bash", "elixir":
		return "#", false
	case "php":
		return "//", true // and "#", handled by the caller
	case "lua", "sql", "elm":
		return "--", false
	case "ocaml":
		return "", false // (* *) never sits in a header between name and body
	case "hcl":
		return "#", true
	}
	return "//", true
}

// stripComments removes comments from a declaration's header (the text
// from its start to its body), outside string literals: a comment between
// `def f():` and the first statement of the body is not part of the
// signature. It never touches text inside quotes.
func stripComments(lang, s string) string {
	line, block := commentSyntax(lang)
	hashToo := lang == "php"
	// Where ' is not a quote: Rust lifetimes, OCaml and Elm primes.
	noChar := lang == "rust" || lang == "ocaml" || lang == "elm" || lang == "swift"
	if !strings.ContainsAny(s, "#/-") {
		return s
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch {
		case c == '"' || c == '`' || c == '\'' && !noChar:
			quote = c
			b.WriteByte(c)
			continue
		case line != "" && strings.HasPrefix(s[i:], line), hashToo && c == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				i = len(s)
			} else {
				i += j - 1 // keep the newline
			}
			continue
		case block && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += 2 + j + 1
			}
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
