// Package parse turns source files into facts with tree-sitter. Each fully
// supported language has a declarative query in schemas/<lang>.scm whose
// capture names (cc.def.*, cc.import.*, cc.call.*, cc.bind.*) say what a node
// means; every other bundled grammar gets generic definitions. This is the
// only package that links cgo.
package parse

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/schemas"
)

// role is what a capture name means to the extractor.
type role uint8

const (
	roleNone role = iota
	roleClassNode
	roleClassName
	roleFuncNode
	roleFuncName
	roleBase
	roleReceiver
	roleResult
	roleReturns
	roleReturnsBody
	roleDoc
	roleValueRef
	roleLocalName
	roleBody
	roleDecorator
	roleScopeNode
	roleScopeName
	roleImportNode
	roleImportSpec
	roleImportName
	roleImportAlias
	roleImportStar
	roleImportKind // cc.import.kind.<kind>
	roleCallNode
	roleCallNew // constructor call node
	roleCallTarget
	roleCallReceiver
	roleBindName
	roleBindType
	roleBindCall
	rolePackage
	roleBindValue     // a binding's value expression, typed by lookup
	roleRefName       // a qualified reference's name
	roleRefReceiver   // a qualified reference's qualifier
	roleValueName     // a top-level variable or constant
	roleBindField     // marks a binding as a field of the enclosing class
	roleExportDefault // the name a module exports as default
	roleIgnore        // helper captures used only by predicates (names starting with "_")
	roleInstType      // a type a value is made of here (T{}, new(T), (*T)(x), var x T)
	roleCallValue     // the called expression when it is not a name (f()(x), table[k](x))
	roleBindElems     // a binding's name when its value's elements are bound (x = [f, g])
	roleBindIter      // a binding's value whose elements it takes (for x in xs)
	roleBindYield     // a yield statement: its value is an element of the generator's result
	roleBindReturn    // a return statement: its value is one of the function's results
	roleBindRetElems  // a return statement returning a container: its elements are the result's
	roleBindFrom      // a binding's value whose member of the binding's name it takes (const { a } = this)
	roleBindUnpack    // a call whose result a tuple assignment unpacks (a, b = f())
	roleBindPattern   // that assignment's target list
	roleBindKey       // an element's key: a subscript or a dict key (table["a"] = f, {"a": f})
	roleBindSeq       // the list or tuple literal an element stands in, for its index ((f, g))
	roleBindStraight  // a name bound by a statement of its scope's body itself, under no branch or loop
	roleArgCallee     // the callee of a call passing a function value
	roleArgList       // that call's argument list
	roleArgValue      // the argument (a name)
	roleArgElem       // an element of an array or list literal passed as an argument
	roleArgKeyword    // the keyword it is passed under
	roleArgFactory    // a decorator factory (@retry(3)): its result gets the argument
	roleAnon          // an anonymous function (arrow function, function expression)
	roleBaseOf        // a constructor function given a base outside its definition (util.inherits(A, B))
	roleBindProp      // a property of the container's elements the value is bound under (plugins[].transform)
	roleBaseName      // that base, as written
	roleFlowCall      // a call read by callFlow (Python value flow through calls)
	roleFlowCallee    // its callee, listed with the nodes below it
	roleFlowArgs      // its arguments, listed with the nodes below them
	// roleProtocol: a value the statement runs special methods of, which
	// no call site names; cc.call.protocol.NAME.NAME lists them
	// (`with x:` runs x.__enter__ and x.__exit__).
	roleProtocol
)

var roleNames = map[string]role{
	"cc.def.class.node":   roleClassNode,
	"cc.def.class.name":   roleClassName,
	"cc.def.func.node":    roleFuncNode,
	"cc.def.func.name":    roleFuncName,
	"cc.def.base":         roleBase,
	"cc.def.receiver":     roleReceiver,
	"cc.def.result":       roleResult,
	"cc.def.returns":      roleReturns,
	"cc.def.returns.body": roleReturnsBody,
	"cc.doc":              roleDoc,
	"cc.value.ref":        roleValueRef,
	"cc.inst.type":        roleInstType,
	"cc.call.value":       roleCallValue,
	"cc.bind.elems":       roleBindElems,
	"cc.bind.iter":        roleBindIter,
	"cc.bind.yield":       roleBindYield,
	"cc.bind.return":      roleBindReturn,
	"cc.bind.retelems":    roleBindRetElems,
	"cc.bind.from":        roleBindFrom,
	"cc.bind.unpack":      roleBindUnpack,
	"cc.bind.pattern":     roleBindPattern,
	"cc.bind.key":         roleBindKey,
	"cc.bind.seq":         roleBindSeq,
	"cc.bind.straight":    roleBindStraight,
	"cc.arg.callee":       roleArgCallee,
	"cc.arg.list":         roleArgList,
	"cc.arg.value":        roleArgValue,
	"cc.arg.elem":         roleArgElem,
	"cc.arg.keyword":      roleArgKeyword,
	"cc.arg.factory":      roleArgFactory,
	"cc.def.anon":         roleAnon,
	"cc.base.of":          roleBaseOf,
	"cc.bind.prop":        roleBindProp,
	"cc.base.name":        roleBaseName,
	"cc.flow.call":        roleFlowCall,
	"cc.flow.callee":      roleFlowCallee,
	"cc.flow.args":        roleFlowArgs,
	"cc.local.name":       roleLocalName,
	"cc.def.body":         roleBody,
	"cc.def.decorator":    roleDecorator,
	"cc.scope.node":       roleScopeNode,
	"cc.scope.name":       roleScopeName,
	"cc.import.node":      roleImportNode,
	"cc.import.spec":      roleImportSpec,
	"cc.import.name":      roleImportName,
	"cc.import.alias":     roleImportAlias,
	"cc.import.star":      roleImportStar,
	"cc.call.node":        roleCallNode,
	"cc.call.new":         roleCallNew,
	"cc.call.target":      roleCallTarget,
	"cc.call.receiver":    roleCallReceiver,
	"cc.bind.name":        roleBindName,
	"cc.bind.type":        roleBindType,
	"cc.bind.call":        roleBindCall,
	"cc.package.name":     rolePackage,
	"cc.bind.field":       roleBindField,
	"cc.bind.value":       roleBindValue,
	"cc.ref.name":         roleRefName,
	"cc.ref.receiver":     roleRefReceiver,
	"cc.value.name":       roleValueName,
	"cc.export.default":   roleExportDefault,
}

// CaptureNames lists the capture names schemas may use (besides
// cc.import.kind.<kind> and helper captures starting with "_").
func CaptureNames() []string {
	out := make([]string, 0, len(roleNames))
	for n := range roleNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// schema is the query of one language, compiled on first use.
type schema struct {
	warm       atomic.Bool // Warm started compiling it
	lang       *config.Language
	ts         *sitter.Language
	src        string
	query      *sitter.Query
	roles      []role              // by capture index
	kinds      []string            // import kind by capture index, for roleImportKind
	generic    bool                // tier 2: definitions from the generic query
	preds      bool                // query has predicates that need FilterPredicates
	predicates []patternPredicates // by pattern
	symbols    []string            // node type names by symbol
	anon       []bool              // anonymous function types by symbol (anonTypes)
	flow       *flowTables         // what callFlow reads (nil: no cc.flow captures)

	once sync.Once
	err  error
}

// Registry holds the schema of every language. It is safe for concurrent
// use; parsing itself happens in per-goroutine Parsers. Queries compile on
// first use (compiling all 26 takes over a second); Validate or Prepare
// compile them up front.
type Registry struct {
	byLang map[string]*schema
	order  []string
}

var (
	defaultOnce sync.Once
	defaultReg  *Registry
	defaultErr  error
)

// Default returns the lazily compiled registry for the built-in language
// table. An error means a language names a grammar or schema that is not
// bundled.
func Default() (*Registry, error) {
	defaultOnce.Do(func() { defaultReg, defaultErr = newLazy(config.Languages) })
	return defaultReg, defaultErr
}

// genericQuery matches any node with a name field; the node type decides
// whether it is a class or a function (genericKind). It gives tier 2
// languages, those without a schema, their definitions.
const genericQuery = `(_ name: (_) @cc.def.func.name) @cc.def.func.node`

// NewRegistry builds a registry for langs and compiles every query,
// returning all compile errors at once, each naming the language and the
// reason.
func NewRegistry(langs []config.Language) (*Registry, error) {
	r, err := newLazy(langs)
	if err != nil {
		return r, err
	}
	return r, r.Validate()
}

func newLazy(langs []config.Language) (*Registry, error) {
	r := &Registry{byLang: map[string]*schema{}}
	var errs []error
	for i := range langs {
		l := &langs[i]
		get := grammars[l.Grammar]
		if get == nil {
			errs = append(errs, fmt.Errorf("language %s: no bundled grammar %q", l.Name, l.Grammar))
			continue
		}
		s := &schema{lang: l, ts: get(), src: genericQuery, generic: true}
		if l.Schema != "" {
			text, ok := schemas.Get(l.Schema)
			if !ok {
				errs = append(errs, fmt.Errorf("language %s: schemas/%s.scm is missing", l.Name, l.Schema))
				continue
			}
			s.src, s.generic = text, false
		}
		r.byLang[l.Name] = s
		r.order = append(r.order, l.Name)
	}
	return r, errors.Join(errs...)
}

// Validate compiles every query and returns all errors.
func (r *Registry) Validate() error { return r.Prepare(r.order...) }

// Warm starts compiling the query of lang in the background (unknown names
// are ignored), so that a caller can go on with other work, such as
// walking the tree, while it compiles: a schema with many patterns takes
// a good part of a second (TypeScript, C++). Prepare and parsing wait for
// it. Calling Warm again for a language does nothing.
func (r *Registry) Warm(lang string) {
	if s := r.byLang[lang]; s != nil && s.warm.CompareAndSwap(false, true) {
		go s.compile()
	}
}

// Prepare compiles the queries of the given languages (unknown names are
// ignored) and returns all errors.
func (r *Registry) Prepare(langs ...string) error {
	var errs []error
	for _, l := range langs {
		if s := r.byLang[l]; s != nil {
			if err := s.compile(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// compile compiles the query once. A generic query that a grammar cannot
// express (no "name" field) leaves the language with no definitions: its
// files are still discovered and counted.
func (s *schema) compile() error {
	s.once.Do(func() {
		q, roles, kinds, predicates, err := compileQuery(s.lang, s.ts, s.src)
		if err != nil {
			if !s.generic {
				s.err = err
			}
			return
		}
		s.query, s.roles, s.kinds, s.predicates = q, roles, kinds, predicates
		for _, p := range predicates {
			s.preds = s.preds || len(p) > 0
		}
		s.symbols = make([]string, s.ts.SymbolCount())
		s.anon = make([]bool, len(s.symbols))
		for i := range s.symbols {
			s.symbols[i] = s.ts.SymbolName(sitter.Symbol(i))
			s.anon[i] = anonTypes[s.symbols[i]]
		}
		s.flow = newFlowTables(s.ts, s.roles, s.symbols)
	})
	return s.err
}

func compileQuery(l *config.Language, ts *sitter.Language, src string) (*sitter.Query, []role, []string, []patternPredicates, error) {
	q, err := sitter.NewQuery([]byte(src), ts)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("schema %s: %w", l.Name, err)
	}
	n := q.CaptureCount()
	roles := make([]role, n)
	kinds := make([]string, n)
	for i := uint32(0); i < n; i++ {
		name := q.CaptureNameForId(i)
		switch {
		case roleNames[name] != roleNone:
			roles[i] = roleNames[name]
		case strings.HasPrefix(name, "cc.import.kind."):
			roles[i] = roleImportKind
			kinds[i] = strings.TrimPrefix(name, "cc.import.kind.")
		case strings.HasPrefix(name, "cc.call.protocol."):
			roles[i] = roleProtocol
			kinds[i] = strings.TrimPrefix(name, "cc.call.protocol.")
		case strings.HasPrefix(name, "_"):
			roles[i] = roleIgnore
		default:
			q.Close()
			return nil, nil, nil, nil, fmt.Errorf("schema %s: unknown capture @%s (known: %s, cc.import.kind.<kind>, cc.call.protocol.<method>..., _helper)",
				l.Name, name, strings.Join(CaptureNames(), ", "))
		}
	}
	preds, err := compilePredicates(q)
	if err != nil {
		q.Close()
		return nil, nil, nil, nil, fmt.Errorf("schema %s: %w", l.Name, err)
	}
	return q, roles, kinds, preds, nil
}

// Supports reports whether the registry can parse files of the language.
func (r *Registry) Supports(lang string) bool { return r.byLang[lang] != nil }

// Tier returns 1 for languages with a full schema, 2 for generic
// definitions, 0 for unknown languages.
func (r *Registry) Tier(lang string) int {
	s := r.byLang[lang]
	switch {
	case s == nil:
		return 0
	case s.generic:
		return 2
	}
	return 1
}

// SchemaDigest is a hash of every schema's text and of the extractor's
// capture names: facts made under another digest may differ.
func SchemaDigest() string {
	h := sha256.New()
	fmt.Fprintf(h, "extractor %d\x00", extractorVersion)
	for _, l := range config.Languages {
		if l.Schema != "" {
			text, _ := schemas.Get(l.Schema)
			fmt.Fprintf(h, "%s\x00%s\x00", l.Name, text)
		}
	}
	for _, n := range CaptureNames() {
		fmt.Fprintf(h, "%s\x00", n)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}
