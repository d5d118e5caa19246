// Package parse turns source files into facts with tree-sitter. Each fully
// supported language has a declarative query in schemas/<lang>.scm whose
// capture names (cc.def.*, cc.import.*, cc.call.*, cc.bind.*) say what a node
// means; every other bundled grammar gets generic definitions. This is the
// only package that links cgo.
package parse

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

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
	roleIgnore // helper captures used only by predicates (names starting with "_")
)

var roleNames = map[string]role{
	"cc.def.class.node": roleClassNode,
	"cc.def.class.name": roleClassName,
	"cc.def.func.node":  roleFuncNode,
	"cc.def.func.name":  roleFuncName,
	"cc.def.base":       roleBase,
	"cc.def.receiver":   roleReceiver,
	"cc.def.result":     roleResult,
	"cc.def.body":       roleBody,
	"cc.def.decorator":  roleDecorator,
	"cc.scope.node":     roleScopeNode,
	"cc.scope.name":     roleScopeName,
	"cc.import.node":    roleImportNode,
	"cc.import.spec":    roleImportSpec,
	"cc.import.name":    roleImportName,
	"cc.import.alias":   roleImportAlias,
	"cc.import.star":    roleImportStar,
	"cc.call.node":      roleCallNode,
	"cc.call.new":       roleCallNew,
	"cc.call.target":    roleCallTarget,
	"cc.call.receiver":  roleCallReceiver,
	"cc.bind.name":      roleBindName,
	"cc.bind.type":      roleBindType,
	"cc.bind.call":      roleBindCall,
	"cc.package.name":   rolePackage,
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

// schema is a compiled query for one language.
type schema struct {
	lang    *config.Language
	ts      *sitter.Language
	query   *sitter.Query
	roles   []role   // by capture index
	kinds   []string // import kind by capture index, for roleImportKind
	generic bool     // tier 2: definitions from the generic query
	preds   bool     // query has predicates that need FilterPredicates
}

// Registry holds the compiled schema of every language. It is safe for
// concurrent use; parsing itself happens in per-goroutine Parsers.
type Registry struct {
	byLang map[string]*schema
}

var (
	defaultOnce sync.Once
	defaultReg  *Registry
	defaultErr  error
)

// Default returns the registry for the built-in language table, compiled
// once. An error means a shipped schema is broken.
func Default() (*Registry, error) {
	defaultOnce.Do(func() { defaultReg, defaultErr = NewRegistry(config.Languages) })
	return defaultReg, defaultErr
}

// genericQuery matches any node with a name field; the node type decides
// whether it is a class or a function (seed 000, tier 2).
const genericQuery = `(_ name: (_) @cc.def.func.name) @cc.def.func.node`

// NewRegistry compiles the schema of every language in langs. It returns
// all compile errors at once, each naming the language and the reason.
func NewRegistry(langs []config.Language) (*Registry, error) {
	r := &Registry{byLang: map[string]*schema{}}
	var errs []error
	for i := range langs {
		l := &langs[i]
		get := grammars[l.Grammar]
		if get == nil {
			errs = append(errs, fmt.Errorf("language %s: no bundled grammar %q", l.Name, l.Grammar))
			continue
		}
		ts := get()
		src, generic := genericQuery, true
		if l.Schema != "" {
			text, ok := schemas.Get(l.Schema)
			if !ok {
				errs = append(errs, fmt.Errorf("language %s: schemas/%s.scm is missing", l.Name, l.Schema))
				continue
			}
			src, generic = text, false
		}
		s, err := compile(l, ts, src, generic)
		if err != nil {
			if generic {
				// A grammar without a "name" field has no generic definitions;
				// its files are still discovered and counted.
				r.byLang[l.Name] = &schema{lang: l, ts: ts, generic: true}
				continue
			}
			errs = append(errs, err)
			continue
		}
		r.byLang[l.Name] = s
	}
	return r, errors.Join(errs...)
}

func compile(l *config.Language, ts *sitter.Language, src string, generic bool) (*schema, error) {
	q, err := sitter.NewQuery([]byte(src), ts)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", l.Name, err)
	}
	s := &schema{lang: l, ts: ts, query: q, generic: generic}
	n := q.CaptureCount()
	s.roles = make([]role, n)
	s.kinds = make([]string, n)
	for i := uint32(0); i < n; i++ {
		name := q.CaptureNameForId(i)
		switch {
		case roleNames[name] != roleNone:
			s.roles[i] = roleNames[name]
		case strings.HasPrefix(name, "cc.import.kind."):
			s.roles[i] = roleImportKind
			s.kinds[i] = strings.TrimPrefix(name, "cc.import.kind.")
		case strings.HasPrefix(name, "_"):
			s.roles[i] = roleIgnore
		default:
			return nil, fmt.Errorf("schema %s: unknown capture @%s (known: %s, cc.import.kind.<kind>, _helper)",
				l.Name, name, strings.Join(CaptureNames(), ", "))
		}
	}
	for p := uint32(0); p < q.PatternCount(); p++ {
		if len(q.PredicatesForPattern(p)) > 0 {
			s.preds = true
			break
		}
	}
	return s, nil
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
