package parse

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// JSDoc types a JavaScript function's parameters and result where the
// language cannot: `@param {Option} option` binds option to Option in the
// function, and `@returns {Command}` is its declared result (commander and
// express are typed this way). Only a single named type counts: unions
// with null or undefined reduce to it, arrays, records, generics and `*`
// say nothing a receiver can use.

var (
	jsDocParam  = regexp.MustCompile(`@param\s*\{([^{}]*)\}\s*\[?([A-Za-z_$][\w$]*)`)
	jsDocReturn = regexp.MustCompile(`@returns?\s*\{([^{}]*)\}`)
)

// jsDoc applies the JSDoc comment right before d (only whitespace or
// declaration keywords between) to d's parameters and result.
func (x *extractor) jsDoc(d *defBuild) {
	i := sort.Search(len(x.docs), func(i int) bool { return x.docs[i].end > d.start }) - 1
	if i < 0 || !d.hasBody {
		return
	}
	doc := x.docs[i]
	between := string(x.src[doc.end:d.start])
	if len(between) > 40 || strings.TrimLeft(between, " \t\r\nabcdefghijklmnopqrstuvwxyz") != "" {
		return
	}
	raw := x.src[doc.start:doc.end]
	if !bytes.Contains(raw, []byte("@param")) && !bytes.Contains(raw, []byte("@return")) {
		return
	}
	text := string(raw)
	if d.result == "" {
		if m := jsDocReturn.FindStringSubmatch(text); m != nil {
			if t := jsDocType(m[1]); t != "" && t != "this" {
				d.result = t
			}
		}
	}
	for _, m := range jsDocParam.FindAllStringSubmatch(text, -1) {
		t := jsDocType(m[1])
		if t == "" {
			continue
		}
		x.binds = append(x.binds, bindBuild{
			Binding: facts.Binding{Name: x.in(m[2]), Type: x.in(t), Line: d.startLine},
			pos:     d.bodyStart,
		})
	}
}

// jsDocType reduces a JSDoc type expression to one type name, or "".
func jsDocType(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "?"), "!")
	s = strings.TrimSuffix(s, "=") // optional parameter
	s = strings.Trim(s, "()")
	var name string
	for _, alt := range strings.Split(s, "|") {
		alt = strings.TrimSpace(alt)
		switch alt {
		case "null", "undefined", "void":
			continue
		}
		if name != "" {
			return "" // a real union
		}
		name = alt
	}
	switch name {
	case "", "*", "any", "Object", "object", "Function", "function", "string", "number", "boolean",
		"String", "Number", "Boolean", "Array", "Promise", "symbol", "bigint":
		return ""
	}
	for _, r := range name {
		if !(r == '_' || r == '$' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return name
}
