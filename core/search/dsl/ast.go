// Package dsl parses the s-expression query language of ccd's retrieval
// tools, which composes searches with these operators:
//
//	(grep "pattern")                 ranked full-text search
//	(code "symbol")                  symbol search: exact names first, then names containing it
//	(definition "symbol")            exact definitions of a symbol
//	(references "symbol")            call, import and type references to a symbol
//	(section "heading")              Markdown sections by heading
//	(file "path")                    a whole file as one handle
//	(children "parent")              members of a class, or subsections of a section
//	(children-named "parent" "name") one named member of a parent
//	(in-file "glob" Q)               Q restricted to files matching glob
//	(union Q1 Q2 ...)                handles matching any of the queries
//	(intersect Q1 Q2 ...)            handles matching all of the queries
//	(limit N Q)                      the N best handles of Q
//
// Strings are double-quoted with Go's backslash escapes (\" \\ \n \t
// \xHH \uHHHH ...); a bare word is accepted where a string is expected.
// Parse errors carry the byte offset, line and column of the problem and
// say what was expected.
package dsl

import (
	"strconv"
	"strings"
)

// Op is an operator of the language.
type Op string

// The operators.
const (
	Grep          Op = "grep"
	Code          Op = "code"
	Definition    Op = "definition"
	References    Op = "references"
	Section       Op = "section"
	File          Op = "file"
	Children      Op = "children"
	ChildrenNamed Op = "children-named"
	InFile        Op = "in-file"
	Union         Op = "union"
	Intersect     Op = "intersect"
	Limit         Op = "limit"
)

// argKind is the kind of one argument slot.
type argKind int

const (
	argString argKind = iota
	argInt
	argExpr
	argExprs // one or more expressions, to the end
)

// signatures lists each operator's arguments.
var signatures = map[Op][]argKind{
	Grep:          {argString},
	Code:          {argString},
	Definition:    {argString},
	References:    {argString},
	Section:       {argString},
	File:          {argString},
	Children:      {argString},
	ChildrenNamed: {argString, argString},
	InFile:        {argString, argExpr},
	Union:         {argExprs},
	Intersect:     {argExprs},
	Limit:         {argInt, argExpr},
}

// Ops lists the operators in the order the documentation gives them.
var Ops = []Op{Grep, Code, Definition, References, Section, File, Children, ChildrenNamed, InFile, Union, Intersect, Limit}

// Expr is one parsed expression.
type Expr struct {
	Op   Op
	Strs []string // string arguments, in order
	N    int      // the count of limit
	Subs []*Expr  // sub-expressions, in order
	Pos  int      // byte offset of the opening parenthesis
}

// String renders e in canonical form: one space between items, strings
// quoted.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Expr) write(b *strings.Builder) {
	b.WriteString("(")
	b.WriteString(string(e.Op))
	if e.Op == Limit {
		b.WriteString(" ")
		b.WriteString(strconv.Itoa(e.N))
	}
	for _, s := range e.Strs {
		b.WriteString(" ")
		b.WriteString(strconv.Quote(s))
	}
	for _, s := range e.Subs {
		b.WriteString(" ")
		s.write(b)
	}
	b.WriteString(")")
}
