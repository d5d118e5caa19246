package parse

import (
	"bytes"
	"fmt"
	"regexp"

	sitter "github.com/smacker/go-tree-sitter"
)

// predicate is one compiled #eq?, #not-eq?, #match?, #not-match?,
// #any-of? or #not-any-of? of a pattern.
type predicate struct {
	negate  bool
	capture uint32
	other   int64 // capture compared against, or -1
	values  [][]byte
	re      *regexp.Regexp
}

// patternPredicates are the predicates of one pattern; all must hold.
type patternPredicates []predicate

// compilePredicates reads the predicates of every pattern once, compiling
// regular expressions up front (go-tree-sitter's FilterPredicates compiles
// them again for every match).
func compilePredicates(q *sitter.Query) ([]patternPredicates, error) {
	out := make([]patternPredicates, q.PatternCount())
	for p := range out {
		for _, steps := range q.PredicatesForPattern(uint32(p)) {
			if len(steps) < 3 || steps[0].Type != sitter.QueryPredicateStepTypeString ||
				steps[1].Type != sitter.QueryPredicateStepTypeCapture {
				return nil, fmt.Errorf("pattern %d: unsupported predicate form", p)
			}
			op := q.StringValueForId(steps[0].ValueId)
			pr := predicate{capture: steps[1].ValueId, other: -1}
			args := steps[2 : len(steps)-1] // drop the Done step
			switch op {
			case "eq?", "not-eq?":
				pr.negate = op == "not-eq?"
				if len(args) != 1 {
					return nil, fmt.Errorf("pattern %d: #%s takes two arguments", p, op)
				}
				if args[0].Type == sitter.QueryPredicateStepTypeCapture {
					pr.other = int64(args[0].ValueId)
				} else {
					pr.values = [][]byte{[]byte(q.StringValueForId(args[0].ValueId))}
				}
			case "match?", "not-match?":
				pr.negate = op == "not-match?"
				if len(args) != 1 || args[0].Type != sitter.QueryPredicateStepTypeString {
					return nil, fmt.Errorf("pattern %d: #%s takes a capture and a string", p, op)
				}
				re, err := regexp.Compile(q.StringValueForId(args[0].ValueId))
				if err != nil {
					return nil, fmt.Errorf("pattern %d: #%s: %w", p, op, err)
				}
				pr.re = re
			case "any-of?", "not-any-of?":
				pr.negate = op == "not-any-of?"
				for _, a := range args {
					if a.Type != sitter.QueryPredicateStepTypeString {
						return nil, fmt.Errorf("pattern %d: #%s takes strings", p, op)
					}
					pr.values = append(pr.values, []byte(q.StringValueForId(a.ValueId)))
				}
			default:
				return nil, fmt.Errorf("pattern %d: unsupported predicate #%s", p, op)
			}
			out[p] = append(out[p], pr)
		}
	}
	return out, nil
}

// ok reports whether a match satisfies every predicate. A predicate on a
// capture absent from the match (an optional node) holds.
func (ps patternPredicates) ok(caps []capture, src []byte) bool {
	for i := range ps {
		if !ps[i].holds(caps, src) {
			return false
		}
	}
	return true
}

func (p *predicate) holds(caps []capture, src []byte) bool {
	for _, c := range caps {
		if c.index != p.capture {
			continue
		}
		text := src[c.node.start:c.node.end]
		var hit bool
		switch {
		case p.re != nil:
			hit = p.re.Match(text)
		case p.other >= 0:
			for _, o := range caps {
				if int64(o.index) == p.other {
					hit = bytes.Equal(text, src[o.node.start:o.node.end])
					break
				}
			}
		default:
			for _, v := range p.values {
				if bytes.Equal(text, v) {
					hit = true
					break
				}
			}
		}
		if hit == p.negate {
			return false
		}
	}
	return true
}
