package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Location is a place a server pointed at: an absolute file path and the
// range of the target (for a definition, the declared name). Lines and
// characters are zero-based, characters in UTF-16 code units, as in LSP.
type Location struct {
	Path  string
	Range protocol.Range
}

// Line returns the 1-based line of the location's start, as ccd counts.
func (l Location) Line() int { return int(l.Range.Start.Line) + 1 }

// String renders the location as path:line:col (1-based line, 0-based col).
func (l Location) String() string {
	return fmt.Sprintf("%s:%d:%d", l.Path, l.Line(), l.Range.Start.Character)
}

// ParseLocations decodes the result of textDocument/definition,
// declaration, typeDefinition, implementation or references: null, a
// Location, a []Location or a []LocationLink. For a LocationLink the
// target's selection range (the name) is used. Locations that are not
// file URIs are dropped.
func ParseLocations(raw json.RawMessage) ([]Location, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var items []json.RawMessage
	switch raw[0] {
	case '{':
		items = []json.RawMessage{raw}
	case '[':
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("decode locations: %w", err)
		}
	default:
		return nil, fmt.Errorf("decode locations: want null, an object or an array, got %.40s", raw)
	}
	var out []Location
	for _, it := range items {
		var shape struct {
			URI       *string `json:"uri"`
			TargetURI *string `json:"targetUri"`
		}
		if err := json.Unmarshal(it, &shape); err != nil {
			return nil, fmt.Errorf("decode location: %w", err)
		}
		var uri string
		var rng protocol.Range
		switch {
		case shape.TargetURI != nil:
			var ll protocol.LocationLink
			if err := json.Unmarshal(it, &ll); err != nil {
				return nil, fmt.Errorf("decode location link: %w", err)
			}
			uri, rng = ll.TargetURI, ll.TargetSelectionRange
		case shape.URI != nil:
			var l protocol.Location
			if err := json.Unmarshal(it, &l); err != nil {
				return nil, fmt.Errorf("decode location: %w", err)
			}
			uri, rng = l.URI, l.Range
		default:
			return nil, fmt.Errorf("decode locations: element is neither a Location nor a LocationLink: %.60s", it)
		}
		p, err := uriPath(uri)
		if err != nil {
			continue
		}
		out = append(out, Location{Path: p, Range: rng})
	}
	return out, nil
}

// Symbol is one entry of a document's outline.
type Symbol struct {
	Name string
	Kind protocol.SymbolKind
	// Container is the dotted name of the enclosing symbols ("" at top level).
	Container string
	// Range covers the whole declaration; Selection its name.
	Range, Selection protocol.Range
}

// ParseSymbols decodes the result of textDocument/documentSymbol, either
// a hierarchical DocumentSymbol[] or a flat SymbolInformation[], into a
// flat list in document order (parents before children).
func ParseSymbols(raw json.RawMessage) ([]Symbol, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("decode symbols: want an array: %w", err)
	}
	var out []Symbol
	for _, it := range items {
		var shape struct {
			Location       json.RawMessage `json:"location"`
			SelectionRange json.RawMessage `json:"selectionRange"`
		}
		if err := json.Unmarshal(it, &shape); err != nil {
			return nil, fmt.Errorf("decode symbol: %w", err)
		}
		switch {
		case shape.SelectionRange != nil:
			var ds protocol.DocumentSymbol
			if err := json.Unmarshal(it, &ds); err != nil {
				return nil, fmt.Errorf("decode document symbol: %w", err)
			}
			out = flattenSymbols(out, ds, "")
		case shape.Location != nil:
			var si protocol.SymbolInformation
			if err := json.Unmarshal(it, &si); err != nil {
				return nil, fmt.Errorf("decode symbol information: %w", err)
			}
			s := Symbol{Name: si.Name, Kind: si.Kind, Range: si.Location.Range, Selection: si.Location.Range}
			if si.ContainerName != nil {
				s.Container = *si.ContainerName
			}
			out = append(out, s)
		default:
			return nil, fmt.Errorf("decode symbols: element is neither a DocumentSymbol nor a SymbolInformation: %.60s", it)
		}
	}
	return out, nil
}

func flattenSymbols(out []Symbol, ds protocol.DocumentSymbol, container string) []Symbol {
	out = append(out, Symbol{Name: ds.Name, Kind: ds.Kind, Container: container, Range: ds.Range, Selection: ds.SelectionRange})
	inner := ds.Name
	if container != "" {
		inner = container + "." + ds.Name
	}
	for _, c := range ds.Children {
		out = flattenSymbols(out, c, inner)
	}
	return out
}
