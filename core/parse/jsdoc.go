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

// jsDocField matches the start of an assignment to a field of this.
var (
	jsDocTypeTag = regexp.MustCompile(`@type\s*\{([^{}]*)\}`)
	jsDocField   = regexp.MustCompile(`^\s*this\.([A-Za-z_$][\w$]*)\s*=[^=]`)
)

// jsDocFields types the fields a JSDoc `@type` comment declares right
// before their assignment: `/** @type {Option[]} */ this.options = []`
// binds this.options[] (what the array holds) to Option, `/** @type
// {Help} */ this._help = null` binds this._help to Help.
func (x *extractor) jsDocFields() {
	for _, doc := range x.docs {
		raw := x.src[doc.start:doc.end]
		if !bytes.Contains(raw, []byte("@type")) {
			continue
		}
		m := jsDocTypeTag.FindSubmatch(raw)
		if m == nil {
			continue
		}
		after := x.src[doc.end:min(len(x.src), int(doc.end)+200)]
		f := jsDocField.FindSubmatch(after)
		if f == nil {
			continue
		}
		t, name := strings.TrimSpace(string(m[1])), "this."+string(f[1])
		if elem, ok := strings.CutSuffix(t, "[]"); ok {
			t, name = elem, name+"[]"
		} else if elem, ok := strings.CutPrefix(t, "Array<"); ok && strings.HasSuffix(elem, ">") {
			t, name = elem[:len(elem)-1], name+"[]"
		}
		if t = jsDocType(t); t == "" {
			continue
		}
		pos := doc.end + uint32(len(after)-len(bytes.TrimLeft(after, " \t\r\n")))
		x.binds = append(x.binds, bindBuild{
			Binding: facts.Binding{Name: x.in(name), Type: x.in(t), Line: lineAt(x.src, pos)},
			pos:     pos,
		})
		if strings.HasSuffix(name, "[]") {
			x.hasElems = true
		}
	}
}

// lineAt is the 1-based line of byte offset pos in src.
func lineAt(src []byte, pos uint32) int {
	return bytes.Count(src[:pos], []byte("\n")) + 1
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
