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

// containers are the generic types whose first argument is the type of
// their elements as a loop sees them (Python's typing and builtins,
// TypeScript's).
var containers = map[string]bool{
	"list": true, "List": true, "Sequence": true, "MutableSequence": true, "Iterable": true, "Iterator": true,
	"Collection": true, "set": true, "Set": true, "frozenset": true, "FrozenSet": true, "MutableSet": true,
	"AbstractSet": true, "tuple": true, "Tuple": true, "deque": true, "Deque": true, "Generator": true,
	"AsyncIterable": true, "AsyncIterator": true, "AsyncGenerator": true, "KeysView": true,
	"Array": true, "ReadonlyArray": true, "IterableIterator": true,
}

// ElemType returns the type of the elements of a container type as
// written (`list[Widget]`, `Sequence["Node"]`, `Item[]`, `Array<Item>`,
// `typing.List[X]`), normalised, or "" when s is no such container or
// the element type is not a plain name. The extractor asks it for Python
// and TypeScript annotations only.
func ElemType(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ":"))
	s = strings.TrimSpace(strings.Trim(s, "'\"")) // a forward reference: "list[Node]"
	if inner, ok := strings.CutSuffix(s, "[]"); ok && !strings.ContainsAny(inner, "[]|(){}") {
		return NormType(inner) // Item[], Subscriber<T>[]
	}
	i := strings.IndexAny(s, "[<")
	if i <= 0 {
		return ""
	}
	head := s[:i]
	if j := strings.LastIndexByte(head, '.'); j >= 0 {
		head = head[j+1:] // typing.List
	}
	closeCh := byte(']')
	if s[i] == '<' {
		closeCh = '>'
	}
	if !containers[head] || s[len(s)-1] != closeCh {
		return ""
	}
	arg := s[i+1 : len(s)-1]
	if k := strings.IndexByte(arg, ','); k >= 0 {
		arg = arg[:k] // tuple[X, ...], Generator[X, None, None]
	}
	arg = strings.Trim(strings.TrimSpace(arg), "'\"")
	if arg == "" || strings.ContainsAny(arg, "[]<>|(){} ") {
		return ""
	}
	return NormType(arg)
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
