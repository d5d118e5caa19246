package parse

import "strings"

// NormType reduces a type expression as written to the name a resolver can
// look up: pointers, references, mutability, generic arguments, array
// suffixes and Python's Optional[...] are stripped ("*pkg.T[K]" → "pkg.T",
// "&mut Vec<T>" → "Vec", "Optional['Node']" → "Node"). Composite types that
// name no single type (slices, maps, functions, unions) give "".
func NormType(s string) string {
	s = strings.TrimSpace(s)
	for {
		before := s
		for _, p := range []string{"*", "&", "mut ", "const ", "volatile ", "struct ", "class ", "enum ", "union ", "typename ", "dyn ", "impl ", "?", "...", "final ", "readonly "} {
			s = strings.TrimSpace(strings.TrimPrefix(s, p))
		}
		s = strings.Trim(s, "'\"")
		if strings.HasPrefix(s, "Optional[") && strings.HasSuffix(s, "]") {
			s = s[len("Optional[") : len(s)-1]
		}
		if s == before {
			break
		}
	}
	if s == "" || strings.HasPrefix(s, "[") || strings.HasPrefix(s, "map[") || strings.HasPrefix(s, "func") ||
		strings.HasPrefix(s, "chan ") || strings.HasPrefix(s, "(") || strings.HasPrefix(s, "{") {
		return ""
	}
	// Cut generic arguments and array/pointer suffixes.
	if i := strings.IndexAny(s, "<[(|"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(strings.TrimSpace(s), "*&? ")
	s = strings.TrimPrefix(s, "::")
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.TrimPrefix(s, "crate.")
	if strings.ContainsAny(s, " \t\n,;{}=") {
		return ""
	}
	return s
}

// stripGenerics removes generic and template argument lists
// ("Foo<int>::make<T>" → "Foo::make"), leaving "<" in operators alone when
// unbalanced.
func stripGenerics(s string) string {
	if !strings.ContainsRune(s, '<') {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if depth != 0 {
		return s
	}
	return b.String()
}
