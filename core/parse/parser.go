package parse

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/gobuild"
)

// Parser parses files one at a time. It is not safe for concurrent use:
// give each worker goroutine its own (tree-sitter parsers and query cursors
// are single-threaded).
type Parser struct {
	reg     *Registry
	parsers map[string]*sitter.Parser
	cursor  *cCursor
	// names interns the short strings facts keep (identifiers, receivers,
	// types, specs): across a tree the same few thousand repeat hundreds of
	// thousands of times.
	names map[string]string
	// scratch holds the buffers the extractor reuses from file to file.
	scratch scratch
}

// scratch is the extractor's working memory kept between files: most of
// a file's facts pass through these buffers before they are copied into
// their final, exactly sized slices, and growing them again for every file
// was a fifth of what a Python build allocated.
type scratch struct {
	refs     []cnode
	locals   []span
	calls    []callBuild
	binds    []bindBuild
	args     []argCand
	order    []*defBuild
	callAt   map[span]int
	defAt    map[span]*defBuild
	straight map[uint32]bool
}

// maxScratch bounds the length of a buffer kept for the next file; a
// huge file's buffers go to the garbage collector instead.
const maxScratch = 1 << 16

// take hands the buffers to an extractor, emptied.
func (sc *scratch) take(x *extractor) {
	if sc.callAt == nil {
		sc.callAt, sc.defAt = map[span]int{}, map[span]*defBuild{}
	}
	x.refCands, x.locals, x.callList, x.binds, x.argCands, x.order = sc.refs[:0], sc.locals[:0], sc.calls[:0], sc.binds[:0], sc.args[:0], sc.order[:0]
	x.calls, x.defs, x.straight = sc.callAt, sc.defAt, sc.straight
}

// keep takes the buffers back from x for the next file, unless one grew
// past maxScratch.
func (sc *scratch) keep(x *extractor) {
	if max(cap(x.refCands), cap(x.locals), cap(x.callList), cap(x.binds), cap(x.argCands), cap(x.order), len(x.calls), len(x.defs), len(x.straight)) > maxScratch {
		*sc = scratch{}
		return
	}
	clear(x.callList[:cap(x.callList)]) // drop the strings they point to
	clear(x.binds[:cap(x.binds)])
	clear(x.argCands[:cap(x.argCands)])
	clear(x.order[:cap(x.order)])
	clear(x.calls)
	clear(x.defs)
	clear(x.straight)
	*sc = scratch{refs: x.refCands[:0], locals: x.locals[:0], calls: x.callList[:0], binds: x.binds[:0], args: x.argCands[:0],
		order: x.order[:0], callAt: x.calls, defAt: x.defs, straight: x.straight}
}

// NewParser returns a parser that uses the registry's schemas.
func (r *Registry) NewParser() *Parser {
	return &Parser{reg: r, parsers: map[string]*sitter.Parser{}, cursor: newCCursor(), names: map[string]string{}}
}

// Close frees the C memory held by the parser.
func (p *Parser) Close() {
	for _, tp := range p.parsers {
		tp.Close()
	}
	p.parsers = nil
	p.cursor.close()
}

// operationLimit bounds the work tree-sitter spends on one file, so a
// pathological input cannot stall a worker. It is far above what real
// files of the size limit need.
const operationLimit = 50_000_000

// Parse extracts the facts of one file. Syntax errors never fail a parse:
// the recovered parts of the tree still yield definitions and calls, and
// SyntaxErrors counts the damage. An error means the language is unknown or
// the parser gave up.
func (p *Parser) Parse(relpath, lang string, src []byte) (*facts.File, error) {
	return p.parse(nil, relpath, lang, src)
}

// ParseWith is Parse reusing the tree c keeps of the file's last parse: the
// text is compared with the one that tree was parsed from, the tree is
// edited to match and tree-sitter reparses only what the edit touched. The
// new tree goes back into c for the next edit. The facts are the same as
// Parse's on the same bytes: when the reused tree comes out with syntax
// errors (whose recovery can depend on the old tree), the file is parsed
// again from scratch. A nil c is Parse.
func (p *Parser) ParseWith(c *TreeCache, relpath, lang string, src []byte) (*facts.File, error) {
	return p.parse(c, relpath, lang, src)
}

// Warm parses src into c without extracting anything, so that the next
// ParseWith of the file is incremental.
func (p *Parser) Warm(c *TreeCache, relpath, lang string, src []byte) error {
	s, err := p.schema(relpath, lang)
	if err != nil {
		return err
	}
	if !utf8.Valid(src) {
		src = latin1ToUTF8(src)
	}
	tree, text, err := p.tree(c, s, relpath, lang, src)
	if err != nil {
		return err
	}
	p.release(c, relpath, lang, text, tree)
	return nil
}

// schema returns the compiled schema of lang.
func (p *Parser) schema(relpath, lang string) (*schema, error) {
	s := p.reg.byLang[lang]
	if s == nil {
		return nil, fmt.Errorf("parse %s: no grammar for language %q", relpath, lang)
	}
	if err := s.compile(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", relpath, err)
	}
	return s, nil
}

func (p *Parser) parse(c *TreeCache, relpath, lang string, src []byte) (*facts.File, error) {
	s, err := p.schema(relpath, lang)
	if err != nil {
		return nil, err
	}
	f := &facts.File{
		Path:  relpath,
		Lang:  lang,
		Hash:  HashContent(src),
		Size:  int64(len(src)),
		Lines: CountLines(src),
	}
	if lang == "go" {
		f.Build = gobuild.FileConstraint(relpath, src)
	}
	if !utf8.Valid(src) {
		// Legacy encodings: read the bytes as Latin-1, which maps every byte
		// to one rune, so identifiers stay whole and lines stay put.
		src = latin1ToUTF8(src)
	}
	tree, text, err := p.tree(c, s, relpath, lang, src)
	if err != nil {
		return nil, err
	}
	defer p.release(c, relpath, lang, text, tree)
	root := tree.RootNode()
	if root.HasError() {
		f.SyntaxErrors = countErrors(root)
		f.ErrorLine = firstErrorLine(root)
	}
	if s.query != nil {
		x := extractor{s: s, src: src, f: f, names: p.names}
		p.scratch.take(&x)
		var exp *expansion
		if s.flow != nil {
			exp = &s.flow.expansion
		}
		if err := p.cursor.run(s.query, root, exp, x.match); err != nil {
			return nil, fmt.Errorf("parse %s: %w", relpath, err)
		}
		x.finish()
		p.scratch.keep(&x)
	}
	return f, nil
}

// tsParser returns the tree-sitter parser of lang, made on first use.
func (p *Parser) tsParser(s *schema, lang string) *sitter.Parser {
	tp := p.parsers[lang]
	if tp == nil {
		tp = sitter.NewParser()
		tp.SetLanguage(s.ts)
		tp.SetOperationLimit(operationLimit)
		p.parsers[lang] = tp
	}
	return tp
}

// fullParse parses src from scratch.
func fullParse(tp *sitter.Parser, old *sitter.Tree, src []byte) (*sitter.Tree, error) {
	// Background context only: a cancellable one can leave the parser's
	// cancel flag set (see the toolchain notes); the operation limit bounds
	// the work instead.
	tree, err := tp.ParseCtx(context.Background(), old, src)
	if err != nil || tree == nil {
		tp.Reset()
		return nil, errGaveUp
	}
	return tree, nil
}

var errGaveUp = errors.New("tree-sitter gave up (operation limit)")

// tree parses src (UTF-8), incrementally when c holds a tree of the file.
// It returns the tree and the text it belongs to (a copy of src when the
// tree is to be cached); release hands both back.
func (p *Parser) tree(c *TreeCache, s *schema, relpath, lang string, src []byte) (*sitter.Tree, []byte, error) {
	tp := p.tsParser(s, lang)
	if c != nil {
		if old := c.take(treeKey{relpath, lang}); old != nil {
			if tree, text := c.reuse(tp, old, src); tree != nil {
				return tree, text, nil
			}
		} else {
			c.full.Add(1)
		}
	}
	tree, err := fullParse(tp, nil, src)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", relpath, err)
	}
	if lang == "typescript" && tree.RootNode().HasError() {
		if fixed := separateSignatures(src); fixed != nil {
			if t2, err := fullParse(tp, nil, fixed); err == nil {
				if countErrors(t2.RootNode()) < countErrors(tree.RootNode()) {
					tree.Close()
					tree, src = t2, fixed
				} else {
					t2.Close()
				}
			}
		}
	}
	if c == nil {
		return tree, nil, nil
	}
	return tree, bytes.Clone(src), nil
}

// reuse parses src by editing old, the file's cached tree, which it
// consumes. It returns nil when the result would not be a fresh parse's
// tree: src must then be parsed from scratch.
func (c *TreeCache) reuse(tp *sitter.Parser, old *cachedTree, src []byte) (*sitter.Tree, []byte) {
	e, changed := diffTexts(old.src, src)
	if !changed {
		c.same.Add(1)
		return old.tree, old.src
	}
	defer c.free(old.tree)
	if old.tree.RootNode().HasError() {
		// The new tree would most likely have errors too, and be parsed
		// again: parse from scratch at once.
		c.full.Add(1)
		return nil, nil
	}
	editTree(old.tree, e)
	tree, err := fullParse(tp, old.tree, src)
	if err == nil && !tree.RootNode().HasError() {
		c.incremental.Add(1)
		return tree, bytes.Clone(src)
	}
	// Error recovery may take another path with an old tree than without:
	// the reference is a parse from scratch.
	if tree != nil {
		tree.Close()
	}
	c.fallback.Add(1)
	return nil, nil
}

// release gives a tree that tree returned back: to c, or to the C heap.
func (p *Parser) release(c *TreeCache, relpath, lang string, text []byte, tree *sitter.Tree) {
	if c == nil {
		tree.Close()
		return
	}
	c.put(&cachedTree{key: treeKey{relpath, lang}, src: text, tree: tree})
}

func latin1ToUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// HashContent is the content hash that decides whether a file changed.
func HashContent(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:16])
}

// CountLines counts lines the way an editor shows them.
func CountLines(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte{'\n'})
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}

func countErrors(n *sitter.Node) int {
	c := 0
	if n.IsError() || n.IsMissing() {
		c++
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		ch := n.Child(i)
		if ch.HasError() || ch.IsMissing() {
			c += countErrors(ch)
		}
	}
	return c
}

// firstErrorLine is the 1-based line of the first ERROR or MISSING node
// under n (0 when there is none).
func firstErrorLine(n *sitter.Node) int {
	if n.IsError() || n.IsMissing() {
		return int(n.StartPoint().Row) + 1
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if ch := n.Child(i); ch.HasError() || ch.IsMissing() {
			if l := firstErrorLine(ch); l > 0 {
				return l
			}
		}
	}
	return 0
}

type span struct{ start, end uint32 }

type defBuild struct {
	kind       facts.DefKind
	name       string
	start, end uint32
	startLine  int
	endLine    int
	bodyStart  uint32
	hasBody    bool
	owner      string
	result     string
	bases      []string
	decorators []string
	scope      bool // a qualifying scope (Rust impl), not a definition
	anon       bool // an anonymous function (see addAnons)
	parent     int
	qual       string
}

type callBuild struct {
	facts.Call
	pos uint32
}

type bindBuild struct {
	facts.Binding
	pos   uint32
	field bool // scope is the enclosing class, not the innermost definition
}

// extractor gathers the captures of one file and assembles its facts.
type extractor struct {
	s        *schema
	src      []byte
	f        *facts.File
	defs     map[span]*defBuild
	order    []*defBuild
	calls    map[span]int // call node → index in callList
	callList []callBuild
	binds    []bindBuild
	returns  map[uint32]string // body start → what it returns (see addReturn)
	docs     []span            // JSDoc comments with tags, in order
	refCands []cnode           // names in value positions (see addRefs)
	// instCands are types values are made of (see addInsts).
	instCands []cnode
	// argCands are names passed as arguments (see addArgFlows).
	argCands []argCand
	// hasElems: some binding is of a container's elements (name[]).
	hasElems bool
	// anons are the anonymous functions (see addAnons); anonNames their
	// final names by start, once finish has numbered them, and anonCount
	// how many each definition (by index, -1: the module) has so far.
	anons     []anonBuild
	anonNames map[uint32]string
	// straight holds the start bytes of names bound under no branch or
	// loop of their scope (facts.Binding.Straight).
	straight  map[uint32]bool
	anonCount map[int]int
	locals    []span            // names bound as variables or parameters
	defNames  map[uint32]bool   // where definitions' names start
	names     map[string]string // the parser's intern table
	// protoBases are bases given to constructor functions by statements
	// (util.inherits(A, B), A.prototype = Object.create(B.prototype)):
	// [A, B] pairs, added to A's definition by finish.
	protoBases [][2]string
}

// maxInterned bounds the intern table; past it, strings are kept as they are.
const maxInterned = 1 << 20

// in returns the interned copy of a short string.
func (x *extractor) in(s string) string {
	if len(s) > 64 || x.names == nil {
		return s
	}
	if v, ok := x.names[s]; ok {
		return v
	}
	if len(x.names) < maxInterned {
		x.names[s] = s
	}
	return s
}

// squeezed is the node's text without white space ("a . b" is "a.b"),
// as strings.Join(strings.Fields(text), "") has it. Most names and
// receivers are written without spaces and were seen before: their
// interned copy is returned and nothing is allocated.
func (x *extractor) squeezed(n *cnode) string {
	if s, ok := x.plain(n); ok {
		return s
	}
	return strings.Join(strings.Fields(x.text(n)), "")
}

// trimmed is the node's text without white space around it.
func (x *extractor) trimmed(n *cnode) string {
	if s, ok := x.plain(n); ok {
		return s
	}
	return strings.TrimSpace(x.text(n))
}

// plain returns the node's text when it is ASCII without white space or
// control characters (the interned copy if there is one); ok is false
// otherwise.
func (x *extractor) plain(n *cnode) (string, bool) {
	b := x.src[n.start:n.end]
	for _, ch := range b {
		if ch <= ' ' || ch >= utf8.RuneSelf {
			return "", false
		}
	}
	if v, ok := x.names[string(b)]; ok {
		return v, true
	}
	return string(b), true
}

func (x *extractor) text(n *cnode) string {
	b := x.src[n.start:n.end]
	if !utf8.Valid(b) {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(b)
}

// captures of one match, by role.
type matchCaps struct {
	classNode, funcNode, scopeNode, importNode, callNode, newNode *cnode
	className, funcName, scopeName                                *cnode
	receiver, result, returns, retBody, body, pkg                 *cnode
	bases, decorators                                             []*cnode
	spec, impName, impAlias, target, recv                         *cnode
	bindName, bindType, bindCall                                  *cnode
	exportDefault, bindValue, refName, refRecv                    *cnode
	star, field                                                   bool
	kind                                                          string
	// value flow: a called value, element and iteration bindings, a
	// function value passed as an argument, an anonymous function
	callValue, argCallee, argList, argValue, argKw *cnode
	argElem                                        bool // argValue is an element of a list passed
	argFactory                                     bool
	anon                                           *cnode
	baseOf, baseName                               *cnode // util.inherits(A, B)
	prop                                           *cnode // plugins[].transform: the elements' property
	elems, iter, yield, from, unpack, ret          bool
	pattern, key, seq                              *cnode
	// protocol is a value whose special methods (protocolNames) the
	// statement runs.
	protocol      *cnode
	protocolNames string
}

// match takes one query match: it checks the pattern's predicates, sorts
// the captures by role and adds the facts they describe.
func (x *extractor) match(pattern int, caps []capture) {
	if x.s.preds && !x.s.predicates[pattern].ok(caps, x.src) {
		return
	}
	var c matchCaps
	for k := range caps {
		cp := &caps[k]
		if cp.index&subMark != 0 {
			continue // a node inside a capture (see callFlow)
		}
		n := &cp.node
		switch x.s.roles[cp.index] {
		case roleFlowCall:
			x.callFlow(caps)
			return
		case roleClassNode:
			c.classNode = n
		case roleClassName:
			c.className = n
		case roleFuncNode:
			c.funcNode = n
		case roleFuncName:
			c.funcName = n
		case roleBase:
			c.bases = append(c.bases, n)
		case roleReceiver:
			c.receiver = n
		case roleResult:
			c.result = n
		case roleReturns:
			c.returns = n
		case roleReturnsBody:
			c.retBody = n
		case roleValueRef:
			if n.end-n.start <= 120 {
				x.refCands = append(x.refCands, *n) // deduplicated in addRefs
			}
		case roleInstType:
			if n.end-n.start <= 120 {
				x.instCands = append(x.instCands, *n)
			}
		case roleBindStraight:
			if x.straight == nil {
				x.straight = map[uint32]bool{}
			}
			x.straight[n.start] = true
		case roleLocalName:
			if n.end-n.start <= 64 {
				x.locals = append(x.locals, span{n.start, n.end})
			}
		case roleDoc:
			if t := x.src[n.start:n.end]; bytes.HasPrefix(t, []byte("/**")) && bytes.IndexByte(t, '@') >= 0 {
				x.docs = append(x.docs, span{n.start, n.end})
			}
		case roleBody:
			c.body = n
		case roleDecorator:
			c.decorators = append(c.decorators, n)
		case roleScopeNode:
			c.scopeNode = n
		case roleScopeName:
			c.scopeName = n
		case roleImportNode:
			c.importNode = n
		case roleImportSpec:
			c.spec = n
		case roleImportName:
			c.impName = n
		case roleImportAlias:
			c.impAlias = n
		case roleImportStar:
			c.star = true
		case roleImportKind:
			c.kind = x.s.kinds[cp.index]
		case roleProtocol:
			c.protocol, c.protocolNames = n, x.s.kinds[cp.index]
		case roleCallNode:
			c.callNode = n
		case roleCallNew:
			c.newNode = n
		case roleCallTarget:
			c.target = n
		case roleCallReceiver:
			c.recv = n
		case roleBindName:
			c.bindName = n
		case roleBindType:
			c.bindType = n
		case roleBindCall:
			c.bindCall = n
		case rolePackage:
			c.pkg = n
		case roleBindValue:
			c.bindValue = n
		case roleRefName:
			c.refName = n
		case roleRefReceiver:
			c.refRecv = n
		case roleValueName:
			if n.end-n.start < 200 {
				x.f.Values = append(x.f.Values, x.in(x.text(n)))
			}
		case roleBindField:
			c.field = true
		case roleCallValue:
			c.callValue = n
		case roleBindElems:
			c.bindName, c.elems = n, true
		case roleBindIter:
			c.bindValue, c.iter = n, true
		case roleBindYield:
			c.bindName, c.yield = n, true
		case roleBindReturn:
			c.bindName, c.ret = n, true
		case roleBindRetElems:
			c.bindName, c.ret, c.elems = n, true, true
		case roleBindFrom:
			c.bindValue, c.from = n, true
		case roleBindUnpack:
			c.bindValue, c.unpack = n, true
		case roleBindPattern:
			c.pattern = n
		case roleBindKey:
			c.key = n
		case roleBindSeq:
			c.seq = n
		case roleArgCallee:
			c.argCallee = n
		case roleArgFactory:
			c.argCallee, c.argFactory = n, true
		case roleArgList:
			c.argList = n
		case roleArgValue:
			c.argValue = n
		case roleArgElem:
			c.argValue, c.argElem = n, true
		case roleArgKeyword:
			c.argKw = n
		case roleExportDefault:
			c.exportDefault = n
		case roleAnon:
			c.anon = n
		case roleBaseOf:
			c.baseOf = n
		case roleBindProp:
			c.prop = n
		case roleBaseName:
			c.baseName = n
		}
	}
	x.add(&c)
}

func (x *extractor) add(c *matchCaps) {
	switch {
	case c.classNode != nil && c.className != nil:
		x.addDef(facts.Class, c.classNode, c.className, c)
	case c.funcNode != nil && c.funcName != nil:
		kind := facts.Func
		if x.s.generic {
			k, ok := genericKind(x.s.symbols[c.funcNode.sym])
			if !ok {
				return
			}
			kind = k
		}
		x.addDef(kind, c.funcNode, c.funcName, c)
	case c.anon != nil:
		if c.body != nil {
			x.anons = append(x.anons, anonBuild{node: *c.anon, body: c.body.start})
		}
	case c.scopeNode != nil && c.scopeName != nil:
		sp := span{c.scopeNode.start, c.scopeNode.end}
		if x.defs[sp] == nil {
			d := &defBuild{scope: true, name: NormType(x.text(c.scopeName)), start: sp.start, end: sp.end}
			if d.name != "" {
				x.defs[sp] = d
				x.order = append(x.order, d)
			}
		}
	}
	if c.spec != nil {
		x.addImport(c)
	}
	if (c.target != nil || c.callValue != nil) && (c.callNode != nil || c.newNode != nil) {
		x.addCall(c)
	}
	if c.protocol != nil {
		x.addProtocol(c)
	}
	if c.argCallee != nil && c.argValue != nil {
		if (c.argList != nil || c.argKw != nil) && c.argValue.end-c.argValue.start <= 120 && !x.isAnon(c.argValue) && x.src[c.argValue.end-1] != ')' && x.src[c.argValue.end-1] != ']' {
			x.refCands = append(x.refCands, *c.argValue) // an argument is a value too
		}
		a := argCand{callee: *c.argCallee, value: *c.argValue, factory: c.argFactory, elem: c.argElem}
		if c.argList != nil {
			a.listStart, a.hasList = c.argList.start, true
		}
		if c.argKw != nil {
			a.kw = x.text(c.argKw)
		}
		x.argCands = append(x.argCands, a)
	}
	if c.bindName != nil && (c.bindType != nil || c.bindCall != nil || c.bindValue != nil) {
		x.addBinding(c)
	}
	if c.refName != nil && c.refRecv != nil {
		x.f.Refs = append(x.f.Refs, facts.Ref{Recv: x.in(x.text(c.refRecv)), Name: x.in(x.text(c.refName)), Line: c.refName.line()})
	}
	if c.returns != nil && c.retBody != nil {
		x.addReturn(c.retBody.start, c.returns)
	}
	if c.pkg != nil && x.f.Package == "" {
		x.f.Package = x.text(c.pkg)
	}
	if c.exportDefault != nil && x.f.DefaultExport == "" {
		x.f.DefaultExport = strings.TrimSpace(x.text(c.exportDefault))
	}
	if c.baseOf != nil && c.baseName != nil && c.baseName.end-c.baseName.start <= 200 {
		x.protoBases = append(x.protoBases, [2]string{x.text(c.baseOf), x.squeezed(c.baseName)})
	}
}

// genericKind classifies a node of a tier 2 grammar by its type name.
func genericKind(t string) (facts.DefKind, bool) {
	for _, w := range []string{"class", "struct", "interface", "enum", "trait", "module", "object", "protocol", "record", "message", "service"} {
		if strings.Contains(t, w) {
			return facts.Class, true
		}
	}
	for _, w := range []string{"function", "method", "constructor", "rpc"} {
		if strings.Contains(t, w) {
			return facts.Func, true
		}
	}
	return 0, false
}

func (x *extractor) addDef(kind facts.DefKind, node, name *cnode, c *matchCaps) {
	if x.defNames == nil {
		x.defNames = map[uint32]bool{}
	}
	x.defNames[name.start] = true
	sp := span{node.start, node.end}
	d := x.defs[sp]
	if d == nil {
		nm := strings.TrimSpace(x.text(name))
		quoted := len(nm) >= 2 && (nm[0] == '\'' || nm[0] == '"') && nm[len(nm)-1] == nm[0]
		if quoted {
			// A quoted key: { 'content-type': function () {} }. Keys
			// that are no name ('GET /users', 'form.name') name nothing.
			nm = nm[1 : len(nm)-1]
			if strings.ContainsAny(nm, " ./:#\\'\"") {
				return
			}
		}
		if nm == "" || len(nm) > 200 || strings.ContainsAny(nm, "\n\r") {
			return
		}
		d = &defBuild{
			kind: kind, name: nm, start: sp.start, end: sp.end,
			startLine: node.line(), endLine: node.endLine(),
		}
		// Qualified declarators (C++ `Foo::bar`, JS `Foo.prototype.bar`)
		// name their owner; a quoted key is one name.
		if i := strings.LastIndex(d.name, "::"); i > 0 && !quoted {
			d.owner, d.name = NormType(d.name[:i]), d.name[i+2:]
		} else if i := strings.LastIndex(d.name, "."); i > 0 && kind == facts.Func && !quoted {
			d.owner, d.name = strings.TrimSuffix(d.name[:i], ".prototype"), d.name[i+1:]
		}
		if d.name == "" {
			return
		}
		x.defs[sp] = d
		x.order = append(x.order, d)
	} else if d.scope {
		return
	}
	if c.body != nil && !d.hasBody {
		d.bodyStart, d.hasBody = c.body.start, true
	}
	if c.receiver != nil && d.owner == "" {
		d.owner = NormType(x.text(c.receiver))
	}
	if c.result != nil && d.result == "" {
		d.result = NormType(x.text(c.result))
	}
	for _, b := range c.bases {
		if t := NormType(x.text(b)); t != "" && !contains(d.bases, t) {
			d.bases = append(d.bases, t)
		}
	}
	for _, dec := range c.decorators {
		if t := decoratorName(x.text(dec)); t != "" && !contains(d.decorators, t) {
			d.decorators = append(d.decorators, t)
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// decoratorName reduces `@app.route("/x")`, `#[tokio::test]` or `@Test` to
// the decorator's dotted name.
func decoratorName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "@")
	s = strings.TrimPrefix(s, "#[")
	s = strings.TrimSuffix(s, "]")
	if i := strings.IndexAny(s, "(\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.ReplaceAll(strings.TrimSpace(s), "::", ".")
	return s
}

func (x *extractor) addImport(c *matchCaps) {
	spec := unquote(strings.TrimSpace(x.text(c.spec)))
	if spec == "" || len(spec) > 500 {
		return
	}
	if c.kind == "spread" {
		// module.exports = { ...math }: math is a module this file
		// required; what it exports, this module exports too.
		if im, ok := x.requiredAs(spec); ok {
			im.Star, im.Kind, im.Alias = true, "reexport", ""
			if c.importNode != nil {
				im.Line = c.importNode.line()
			}
			x.f.Imports = append(x.f.Imports, im)
		}
		return
	}
	im := facts.Import{Spec: x.in(spec), Star: c.star, Kind: c.kind}
	if c.impName != nil {
		im.Name = strings.TrimSpace(x.text(c.impName))
	}
	if c.impAlias != nil {
		im.Alias = strings.TrimSpace(x.text(c.impAlias))
	}
	at := c.spec
	if c.importNode != nil {
		at = c.importNode
	}
	im.Line = at.line()
	x.f.Imports = append(x.f.Imports, im)
}

// requiredAs is the import of a module an earlier require bound to
// name (const name = require('./m')), when there is one.
func (x *extractor) requiredAs(name string) (facts.Import, bool) {
	for i := len(x.f.Imports) - 1; i >= 0; i-- {
		im := x.f.Imports[i]
		if im.Alias == name && im.Name == "" && !im.Star && im.Kind == "require" {
			return im, true
		}
	}
	return facts.Import{}, false
}

func unquote(s string) string {
	if len(s) >= 2 {
		switch s[0] {
		case '"', '\'', '`':
			if s[len(s)-1] == s[0] {
				return s[1 : len(s)-1]
			}
		}
	}
	return s
}

func (x *extractor) addCall(c *matchCaps) {
	node, isNew := c.callNode, false
	if c.newNode != nil {
		node, isNew = c.newNode, true
	}
	var name string
	if c.target != nil && x.isAnon(c.target) {
		name = x.anonName(c.target) // (function () { ... })()
	} else if c.target != nil {
		name = x.trimmed(c.target)
	} else {
		// A value called: f()(x), table[k](x), obj(x) where obj is
		// an instance: a call of the value's __call__.
		name, c.recv = "__call__", c.callValue
	}
	if name == "" || len(name) > 200 {
		return
	}
	call := facts.Call{Name: x.in(stripGenerics(name)), New: isNew, Line: node.line()}
	if c.recv != nil {
		r := stripGenerics(x.squeezed(c.recv))
		if strings.HasPrefix(r, "new") && len(r) > 3 && bytes.HasPrefix(x.src[c.recv.start:c.recv.end], []byte("new")) {
			// new X(...).m(): keep the keyword apart from the type.
			if rest := x.src[c.recv.start+3 : c.recv.end]; len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n') {
				r = "new " + r[3:]
			}
		}
		// Optional chaining and non-null assertions do not change the type.
		r = strings.TrimSuffix(strings.ReplaceAll(strings.ReplaceAll(r, "?.", "."), "!.", "."), "!")
		if len(r) > 120 {
			r = "?"
		}
		call.Recv = x.in(r)
	}
	// A target captured with its qualifier (`a::b::f`, `Foo.bar`) is split here.
	if call.Recv == "" {
		if i := strings.LastIndex(call.Name, "::"); i > 0 {
			call.Recv, call.Name = call.Name[:i], call.Name[i+2:]
		}
	}
	if x.f.Lang == "python" && !isNew && (call.Recv == "" || call.Name == "__call__") {
		// A value called: flow analysis guesses its targets, and the
		// number of arguments tells some apart.
		callee := c.target
		if callee == nil {
			callee = c.callValue
		}
		if callee != nil {
			call.Arity = pyArity(x.src, int(callee.end), int(node.end))
		}
	}
	sp := span{node.start, node.end}
	if i, ok := x.calls[sp]; ok {
		// Several patterns matched one call: keep the most specific reading.
		old := &x.callList[i].Call
		if old.Recv == "" && call.Recv != "" {
			old.Recv, old.Name = call.Recv, call.Name
		}
		old.New = old.New || call.New
		return
	}
	x.calls[sp] = len(x.callList)
	x.callList = append(x.callList, callBuild{Call: call, pos: sp.start})
}

// addProtocol records the special methods a statement runs on a value
// (`with Lock() as l:` runs Lock().__enter__ and __exit__; `for x in bag:`
// runs bag.__iter__ and __next__) as calls of them on the value, at its
// line. No call site names them, so no name-only match is made for them
// (commonMethods).
func (x *extractor) addProtocol(c *matchCaps) {
	recv := x.squeezed(c.protocol)
	if recv == "" || len(recv) > 120 {
		return
	}
	for _, name := range strings.Split(c.protocolNames, ".") {
		if name == "" {
			continue
		}
		call := facts.Call{Name: x.in(name), Recv: x.in(recv), Line: c.protocol.line()}
		x.callList = append(x.callList, callBuild{Call: call, pos: c.protocol.start})
	}
}

func (x *extractor) addBinding(c *matchCaps) {
	b := facts.Binding{Name: x.squeezed(c.bindName), Line: c.bindName.line()}
	if b.Name == "_" {
		return
	}
	if c.elems {
		b.Name += "[]" // what the container holds
		if c.prop != nil {
			// [{ name: 'min', transform: minify }]: what the elements'
			// property holds (plugins[].transform)
			b.Name += "." + x.text(c.prop)
		}
	}
	if c.yield {
		b.Name = "yield[]" // in the generator's scope: what a call of it holds
	}
	if c.ret {
		b.Name = facts.ReturnName // in the function's scope: what a call of it is
		if c.elems {
			b.Name += "[]" // return [f, g], return {"a": f}: its elements
		}
	}
	x.hasElems = x.hasElems || c.elems || c.yield || c.ret
	switch {
	case c.bindType != nil:
		raw := x.text(c.bindType)
		if !c.elems && !c.yield && !c.ret && (x.f.Lang == "python" || x.f.Lang == "typescript" || x.f.Lang == "tsx") {
			// items: list[Widget] also says what its elements are:
			// `for w in items` takes the binding items[].
			if e := ElemType(raw); e != "" && b.Name != "" {
				eb := facts.Binding{Name: x.in(b.Name + "[]"), Type: x.in(e), Line: b.Line}
				x.binds = append(x.binds, bindBuild{Binding: eb, pos: c.bindName.start, field: c.field})
				x.hasElems = true
			}
		}
		b.Type = NormType(raw)
		if strings.HasSuffix(strings.TrimSpace(raw), "[]") {
			b.Type = "" // Item[] is no Item
		}
	case c.bindValue != nil && x.src[c.bindValue.start] == '{' && isJS(x.f.Lang):
		b.FromExpr = facts.ObjectLiteral // its methods are the function's
	case c.bindValue != nil:
		v := x.valueText(c.bindValue)
		if c.iter {
			v += "[]" // an element of v
		}
		if c.from {
			v += "." + b.Name // const { _buffer } = this: this._buffer
		}
		if c.unpack {
			// a, b, c = make_counter(): the ith item of what it returns
			if c.pattern == nil || c.pattern.start > c.bindName.start {
				return
			}
			i := bytes.Count(x.src[c.pattern.start:c.bindName.start], []byte(","))
			v += "[" + strconv.Itoa(i) + "]"
		}
		if len(v) > 120 || v == b.Name {
			return
		}
		b.FromExpr = v
	default:
		call := x.squeezed(c.bindCall)
		if i := strings.IndexByte(call, '('); i >= 0 {
			call = call[:i]
		}
		call = stripGenerics(strings.ReplaceAll(call, "::", "."))
		if len(call) > 120 {
			return
		}
		b.FromCall = call
	}
	if b.Name == "" || (b.Type == "" && b.FromCall == "" && b.FromExpr == "") {
		return
	}
	b.Name, b.Type, b.FromCall, b.FromExpr = x.in(b.Name), x.in(b.Type), x.in(b.FromCall), x.in(b.FromExpr)
	x.binds = append(x.binds, bindBuild{Binding: b, pos: c.bindName.start, field: c.field})
	if c.elems && b.FromExpr != "" {
		if k, ok := x.elemKey(c); ok {
			// the element under its key too: CODEC = (encode, decode)
			// binds CODEC[0] and CODEC[1]; table["a"] = f binds
			// table["a"] (see facts.ElemKey)
			kb := b
			kb.Name = x.in(strings.TrimSuffix(b.Name, "[]") + "[" + k + "]")
			x.binds = append(x.binds, bindBuild{Binding: kb, pos: c.bindName.start, field: c.field})
		}
	}
}

// elemKey is the key of a container's element bound by c: its index in
// the list or tuple literal, or its key (a subscript or a dict key) when
// that is a string or integer literal, normalised by facts.ElemKey.
func (x *extractor) elemKey(c *matchCaps) (string, bool) {
	switch {
	case c.seq != nil && c.bindValue != nil && c.bindValue.start > c.seq.start:
		return strconv.Itoa(argIndex(x.src[c.seq.start:c.bindValue.start])), true
	case c.key != nil:
		if isJS(x.f.Lang) {
			// { warm: f } and { warm }: the key is the string "warm"
			if sym := x.s.symbols[c.key.sym]; sym == "property_identifier" || sym == "shorthand_property_identifier" {
				return `"` + x.text(c.key) + `"`, true
			}
		}
		return facts.ElemKey(x.text(c.key))
	}
	return "", false
}

// finish orders definitions, links parents, qualifies names and attributes
// calls and bindings to their innermost enclosing definition.
func (x *extractor) finish() {
	x.addAnons()
	sort.Slice(x.order, func(i, j int) bool {
		a, b := x.order[i], x.order[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return !a.scope && b.scope
	})
	// Walk definitions and scopes in order with a stack of open ones.
	var stack []*defBuild
	defIndex := make(map[*defBuild]int, len(x.order))
	seen := make(map[string]int, len(x.order))
	if len(x.order) > 0 {
		x.f.Defs = make([]facts.Def, 0, len(x.order))
	}
	for _, d := range x.order {
		for len(stack) > 0 && stack[len(stack)-1].end <= d.start {
			stack = stack[:len(stack)-1]
		}
		d.parent = -1
		var quals []string
		for _, o := range stack {
			// Anonymous functions qualify only anonymous ones: a
			// name defined in a callback keeps an id that does not
			// change with the callbacks around it.
			if !o.anon || d.anon {
				quals = append(quals, o.qualName())
			}
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if !stack[i].scope {
				d.parent = defIndex[stack[i]]
				break
			}
		}
		// The innermost scope (Rust impl) names the owner of its methods.
		if len(stack) > 0 && stack[len(stack)-1].scope && d.owner == "" {
			d.owner = stack[len(stack)-1].name
			quals = quals[:len(quals)-1]
		}
		// JS `this.m = function () {}` in a constructor function (or a
		// class's method) is a method of its instances.
		if d.owner == "this" {
			d.owner = ""
			if n := len(stack); n > 0 && !stack[n-1].scope && !stack[n-1].anon && stack[n-1].kind == facts.Func && len(quals) > 0 {
				top := stack[n-1]
				switch {
				case n > 1 && stack[n-2].kind == facts.Class && !stack[n-2].scope && len(quals) > 1:
					// a class's constructor or method: the class's
					// (its parent stays the method: the names the
					// function reads are the method's)
					d.owner, quals = stack[n-2].name, quals[:len(quals)-2]
				case top.owner == "":
					d.owner, quals = top.name, quals[:len(quals)-1]
				}
			}
		}
		stack = append(stack, d)
		if d.scope {
			continue
		}
		if d.anon {
			x.numberAnon(d)
		}
		q := d.name
		if d.owner != "" {
			q = d.owner + "." + d.name
		}
		if len(quals) > 0 {
			q = strings.Join(quals, ".") + "." + q
		}
		seen[q]++
		if n := seen[q]; n > 1 {
			q = fmt.Sprintf("%s#%d", q, n)
		}
		d.qual = q
		if len(x.docs) > 0 && d.kind == facts.Func {
			x.jsDoc(d)
		}
		defIndex[d] = len(x.f.Defs)
		x.f.Defs = append(x.f.Defs, facts.Def{
			Name: x.in(d.name), Qual: q, Kind: d.kind, Parent: d.parent,
			StartLine: d.startLine, EndLine: d.endLine,
			StartByte: int(d.start), EndByte: int(d.end),
			Signature: x.signature(d), Owner: d.owner, Bases: d.bases,
			Result: x.result(d), Decorators: d.decorators,
		})
	}
	if len(x.f.Defs) == 0 {
		x.f.Defs = nil // scopes alone (a Rust impl with nothing in it): none, as before sizing
	}
	x.implementationsFirst(seen, defIndex)
	x.addProtoBases()
	x.renameAnons()
	x.addRefs()
	x.addInsts()
	x.addArgFlows()
	x.jsDocFields()
	x.attribute()
	x.filterRefs()
}

// addProtoBases adds the bases statements give constructor functions
// (util.inherits(Request, Emitter)) to the top-level definition of that
// name, once each: then Request's instances have Emitter's prototype
// methods, as a class's have its superclass's.
func (x *extractor) addProtoBases() {
	for _, pb := range x.protoBases {
		for i := range x.f.Defs {
			d := &x.f.Defs[i]
			if d.Parent >= 0 || d.Owner != "" || d.Name != pb[0] || d.Kind != facts.Func && d.Kind != facts.Class {
				continue
			}
			if !slices.Contains(d.Bases, pb[1]) {
				d.Bases = append(slices.Clip(d.Bases), x.in(pb[1]))
			}
			break
		}
	}
}

// implementationsFirst gives an implementation that follows its overload
// signatures (TypeScript `function f(a: string): T;`, Python
// `@overload def f(...): ...`) the plain qualified name, and its
// signatures the numbered ones (f#2, f#3, ...) in source order: the id of
// the function people change and call does not depend on how many
// overloads it has. seen counts the definitions of each qualified name;
// defIndex places each definition in x.f.Defs.
func (x *extractor) implementationsFirst(seen map[string]int, defIndex map[*defBuild]int) {
	dups := false
	for _, n := range seen {
		if n > 1 {
			dups = true
			break
		}
	}
	if !dups {
		return
	}
	groups := map[string][]*defBuild{} // x.order is in source order
	for _, d := range x.order {
		if i, ok := defIndex[d]; ok {
			if base := dupBase(x.f.Defs[i].Qual); seen[base] > 1 {
				groups[base] = append(groups[base], d)
			}
		}
	}
	for base, g := range groups {
		if !g[0].isStub() || g[len(g)-1].isStub() {
			continue
		}
		x.f.Defs[defIndex[g[len(g)-1]]].Qual = base
		for k, d := range g[:len(g)-1] {
			x.f.Defs[defIndex[d]].Qual = fmt.Sprintf("%s#%d", base, k+2)
		}
	}
}

// dupBase cuts the number finish gives a second definition of a name
// ("f#2" is f).
func dupBase(q string) string {
	i := strings.LastIndexByte(q, '#')
	if i <= 0 || i == len(q)-1 {
		return q
	}
	for _, ch := range q[i+1:] {
		if ch < '0' || ch > '9' {
			return q
		}
	}
	return q[:i]
}

// isStub reports whether d only declares a signature: no body (a
// TypeScript overload or declaration) or a Python @overload.
func (d *defBuild) isStub() bool {
	if d.kind != facts.Func {
		return false
	}
	for _, dec := range d.decorators {
		if dec == "overload" || strings.HasSuffix(dec, ".overload") {
			return true
		}
	}
	return !d.hasBody
}

// addReturn records what a body (by its start) returns, from a return
// statement directly in it (one inside a nested block or callback does not
// count). Bodies that return different things record nothing.
func (x *extractor) addReturn(body uint32, expr *cnode) {
	r := ""
	if x.isAnon(expr) {
		r = x.anonName(expr) // return function () { ... }
	} else if expr.end > expr.start && x.src[expr.start] == '{' {
		r = "{}" // an object literal: its methods are the function's (see resolve)
	} else if expr.end-expr.start <= 200 {
		r = strings.Join(strings.Fields(x.text(expr)), " ")
	}
	if x.returns == nil {
		x.returns = map[uint32]string{}
	}
	if old, ok := x.returns[body]; ok && old != r {
		r = ""
	}
	x.returns[body] = r
}

// result is d's declared result type, else "=" and what its body returns
// (JavaScript `return this`, `return new Option(flags)`): an expression
// the resolver types from inside the function.
func (x *extractor) result(d *defBuild) string {
	if d.result != "" || !d.hasBody {
		return d.result
	}
	if r := x.returns[d.bodyStart]; r != "" {
		return "=" + r
	}
	return ""
}

// filterRefs keeps the references whose qualifier names an import: the
// only ones that say something a resolver needs, at a fraction of the memory.
func (x *extractor) filterRefs() {
	if len(x.f.Refs) == 0 {
		return
	}
	local := map[string]bool{}
	for _, im := range x.f.Imports {
		if im.Alias != "" {
			local[im.Alias] = true
		}
		spec := im.Spec
		if i := strings.LastIndexAny(spec, "/."); i >= 0 {
			spec = spec[i+1:]
		}
		local[spec] = true
	}
	keep := x.f.Refs[:0]
	seen := map[facts.Ref]bool{}
	for _, r := range x.f.Refs {
		k := facts.Ref{Recv: r.Recv, Name: r.Name}
		if local[r.Recv] && !seen[k] {
			seen[k] = true
			keep = append(keep, r)
		}
	}
	x.f.Refs = keep
}

// qualName is how an enclosing definition or scope prefixes nested names.
func (d *defBuild) qualName() string {
	if d.scope {
		return d.name
	}
	if d.owner != "" {
		return d.owner + "." + d.name
	}
	return d.name
}

func (x *extractor) signature(d *defBuild) string {
	end := d.end
	if d.hasBody && d.bodyStart > d.start {
		end = d.bodyStart
	} else if i := bytes.IndexByte(x.src[d.start:d.end], '\n'); i >= 0 {
		end = d.start + uint32(i)
	}
	s := stripComments(x.s.lang.Name, string(x.src[d.start:end]))
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = strings.TrimRight(s, " {:=;")
	// Long enough for the parameter lists of real constructors (mobx's
	// Reaction, immer's finalizeProperty): signature checks need all of it.
	if len(s) > 400 {
		s = s[:397] + "..."
	}
	return s
}

// attribute sets Call.Caller and Binding.Scope to the innermost definition
// enclosing each position, in one sweep over positions in order.
func (x *extractor) attribute() {
	defs := x.f.Defs
	encl := func(positions []uint32, set func(i, def int)) {
		idx := make([]int, len(positions))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return positions[idx[a]] < positions[idx[b]] })
		var stack []int
		next := 0
		for _, i := range idx {
			pos := int(positions[i])
			for next < len(defs) && defs[next].StartByte <= pos {
				for len(stack) > 0 && defs[stack[len(stack)-1]].EndByte <= defs[next].StartByte {
					stack = stack[:len(stack)-1]
				}
				stack = append(stack, next)
				next++
			}
			for len(stack) > 0 && defs[stack[len(stack)-1]].EndByte <= pos {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				set(i, stack[len(stack)-1])
			} else {
				set(i, -1)
			}
		}
	}
	pos := make([]uint32, len(x.callList))
	for i, c := range x.callList {
		pos[i] = c.pos
	}
	x.f.Calls = make([]facts.Call, len(x.callList))
	encl(pos, func(i, d int) {
		x.f.Calls[i] = x.callList[i].Call
		x.f.Calls[i].Caller = d
	})
	pos = pos[:0]
	for _, b := range x.binds {
		pos = append(pos, b.pos)
	}
	x.f.Bindings = make([]facts.Binding, len(x.binds))
	encl(pos, func(i, d int) {
		x.f.Bindings[i] = x.binds[i].Binding
		x.f.Bindings[i].Straight = x.straight[x.binds[i].pos]
		if x.binds[i].field {
			// A constructor parameter property belongs to the class.
			for d >= 0 && defs[d].Kind != facts.Class {
				d = defs[d].Parent
			}
		}
		x.f.Bindings[i].Scope = d
	})
	x.dropShadowedRefs(encl)
}

// ParseOnly parses src without extracting anything: the floor that
// extraction is measured against in benchmarks.
func (p *Parser) ParseOnly(lang string, src []byte) error {
	s := p.reg.byLang[lang]
	if s == nil {
		return fmt.Errorf("no grammar for language %q", lang)
	}
	tree, err := fullParse(p.tsParser(s, lang), nil, src)
	if err != nil {
		return err
	}
	tree.Close()
	return nil
}

// isJS reports whether lang is JavaScript or TypeScript.
func isJS(lang string) bool {
	switch lang {
	case "javascript", "typescript", "tsx", "jsx":
		return true
	}
	return false
}
