package scip

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The messages of scip.proto that ccd reads and writes, with the field
// numbers of SCIP 0.5. Fields ccd does not use are skipped when reading
// and never written.

// Index is a whole SCIP index.
type Index struct {
	Metadata  Metadata
	Documents []Document
	// External holds the external_symbols of the index: symbols defined
	// outside it that its documents refer to.
	External []SymbolInformation
}

// Metadata describes the tool and project an index comes from.
type Metadata struct {
	ToolName, ToolVersion string
	ProjectRoot           string // a file:// URI
	UTF8                  bool   // text_document_encoding is UTF8
}

// Document is one source file of an index.
type Document struct {
	Language     string
	RelativePath string
	Occurrences  []Occurrence
	Symbols      []SymbolInformation
	// PositionEncoding: 1 UTF-8 bytes, 2 UTF-16 code units, 3 UTF-32 code
	// units from the line start; 0 unspecified.
	PositionEncoding int32
}

// Occurrence is one place a symbol is defined or referenced. Range is
// [startLine, startChar, endChar] (one line) or [startLine, startChar,
// endLine, endChar], 0-based.
type Occurrence struct {
	Range          []int32
	Symbol         string
	Roles          int32
	EnclosingRange []int32
}

// Symbol roles (a bit set).
const (
	RoleDefinition = 0x1
	RoleImport     = 0x2
	RoleTest       = 0x20
)

// SymbolInformation is what an index says about one symbol.
type SymbolInformation struct {
	Symbol          string
	Documentation   []string
	Relationships   []Relationship
	Kind            int32
	DisplayName     string
	EnclosingSymbol string
}

// Relationship links a symbol to another one.
type Relationship struct {
	Symbol                                                        string
	IsReference, IsImplementation, IsTypeDefinition, IsDefinition bool
}

// Symbol kinds used by ccd (SymbolInformation.Kind).
const (
	KindClass     = 7
	KindFile      = 16
	KindFunction  = 17
	KindInterface = 21
	KindMethod    = 26
)

// Marshal encodes an index in the protobuf wire format, fields in number
// order, so the same index always gives the same bytes.
func (x *Index) Marshal() []byte {
	var b []byte
	b = appendMsg(b, 1, x.Metadata.marshal())
	for i := range x.Documents {
		b = appendMsg(b, 2, x.Documents[i].marshal())
	}
	for i := range x.External {
		b = appendMsg(b, 3, x.External[i].marshal())
	}
	return b
}

func (m *Metadata) marshal() []byte {
	var b, tool []byte
	tool = appendString(tool, 1, m.ToolName)
	tool = appendString(tool, 2, m.ToolVersion)
	b = appendMsg(b, 2, tool)
	b = appendString(b, 3, m.ProjectRoot)
	if m.UTF8 {
		b = appendVarint(b, 4, 1)
	}
	return b
}

func (d *Document) marshal() []byte {
	var b []byte
	b = appendString(b, 1, d.RelativePath)
	for i := range d.Occurrences {
		b = appendMsg(b, 2, d.Occurrences[i].marshal())
	}
	for i := range d.Symbols {
		b = appendMsg(b, 3, d.Symbols[i].marshal())
	}
	b = appendString(b, 4, d.Language)
	b = appendVarint(b, 6, uint64(d.PositionEncoding))
	return b
}

func (o *Occurrence) marshal() []byte {
	var b []byte
	b = appendPacked(b, 1, o.Range)
	b = appendString(b, 2, o.Symbol)
	b = appendVarint(b, 3, uint64(o.Roles))
	b = appendPacked(b, 7, o.EnclosingRange)
	return b
}

func (s *SymbolInformation) marshal() []byte {
	var b []byte
	b = appendString(b, 1, s.Symbol)
	for _, d := range s.Documentation {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendString(b, d)
	}
	for _, r := range s.Relationships {
		var rb []byte
		rb = appendString(rb, 1, r.Symbol)
		rb = appendBool(rb, 2, r.IsReference)
		rb = appendBool(rb, 3, r.IsImplementation)
		rb = appendBool(rb, 4, r.IsTypeDefinition)
		rb = appendBool(rb, 5, r.IsDefinition)
		b = appendMsg(b, 4, rb)
	}
	b = appendVarint(b, 5, uint64(s.Kind))
	b = appendString(b, 6, s.DisplayName)
	b = appendString(b, 8, s.EnclosingSymbol)
	return b
}

// Default (zero) values are not written, as proto3 requires.

func appendMsg(b []byte, num protowire.Number, m []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	return appendVarint(b, num, 1)
}

func appendPacked(b []byte, num protowire.Number, xs []int32) []byte {
	if len(xs) == 0 {
		return b
	}
	var p []byte
	for _, x := range xs {
		p = protowire.AppendVarint(p, uint64(int64(x)))
	}
	return appendMsg(b, num, p)
}

// Unmarshal decodes an index. Unknown fields are skipped; a malformed
// buffer is an error that says where.
func Unmarshal(b []byte) (*Index, error) {
	x := &Index{}
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			return x.Metadata.unmarshal(v)
		case num == 2 && typ == protowire.BytesType:
			var d Document
			if err := d.unmarshal(v); err != nil {
				return fmt.Errorf("document %d: %w", len(x.Documents), err)
			}
			x.Documents = append(x.Documents, d)
		case num == 3 && typ == protowire.BytesType:
			var s SymbolInformation
			if err := s.unmarshal(v); err != nil {
				return fmt.Errorf("external symbol %d: %w", len(x.External), err)
			}
			x.External = append(x.External, s)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scip index: %w", err)
	}
	return x, nil
}

func (m *Metadata) unmarshal(b []byte) error {
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		switch {
		case num == 2 && typ == protowire.BytesType:
			return fields(v, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
				switch {
				case num == 1 && typ == protowire.BytesType:
					m.ToolName = string(v)
				case num == 2 && typ == protowire.BytesType:
					m.ToolVersion = string(v)
				}
				return nil
			})
		case num == 3 && typ == protowire.BytesType:
			m.ProjectRoot = string(v)
		case num == 4 && typ == protowire.VarintType:
			m.UTF8 = n == 1
		}
		return nil
	})
}

func (d *Document) unmarshal(b []byte) error {
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			d.RelativePath = string(v)
		case num == 2 && typ == protowire.BytesType:
			var o Occurrence
			if err := o.unmarshal(v); err != nil {
				return fmt.Errorf("%s: occurrence %d: %w", d.RelativePath, len(d.Occurrences), err)
			}
			d.Occurrences = append(d.Occurrences, o)
		case num == 3 && typ == protowire.BytesType:
			var s SymbolInformation
			if err := s.unmarshal(v); err != nil {
				return fmt.Errorf("%s: symbol %d: %w", d.RelativePath, len(d.Symbols), err)
			}
			d.Symbols = append(d.Symbols, s)
		case num == 4 && typ == protowire.BytesType:
			d.Language = string(v)
		case num == 6 && typ == protowire.VarintType:
			d.PositionEncoding = int32(n)
		}
		return nil
	})
}

func (o *Occurrence) unmarshal(b []byte) error {
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		var err error
		switch {
		case num == 1:
			o.Range, err = int32s(o.Range, typ, v, n)
		case num == 2 && typ == protowire.BytesType:
			o.Symbol = string(v)
		case num == 3 && typ == protowire.VarintType:
			o.Roles = int32(n)
		case num == 7:
			o.EnclosingRange, err = int32s(o.EnclosingRange, typ, v, n)
		}
		return err
	})
}

func (s *SymbolInformation) unmarshal(b []byte) error {
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			s.Symbol = string(v)
		case num == 3 && typ == protowire.BytesType:
			s.Documentation = append(s.Documentation, string(v))
		case num == 4 && typ == protowire.BytesType:
			var r Relationship
			err := fields(v, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
				switch {
				case num == 1 && typ == protowire.BytesType:
					r.Symbol = string(v)
				case num == 2 && typ == protowire.VarintType:
					r.IsReference = n != 0
				case num == 3 && typ == protowire.VarintType:
					r.IsImplementation = n != 0
				case num == 4 && typ == protowire.VarintType:
					r.IsTypeDefinition = n != 0
				case num == 5 && typ == protowire.VarintType:
					r.IsDefinition = n != 0
				}
				return nil
			})
			if err != nil {
				return err
			}
			s.Relationships = append(s.Relationships, r)
		case num == 5 && typ == protowire.VarintType:
			s.Kind = int32(n)
		case num == 6 && typ == protowire.BytesType:
			s.DisplayName = string(v)
		case num == 8 && typ == protowire.BytesType:
			s.EnclosingSymbol = string(v)
		}
		return nil
	})
}

// fields calls f for each field of a message: bytes fields with their
// contents, varint fields with their value.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, n uint64) error) error {
	off := 0
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return fmt.Errorf("bad tag at byte %d: %w", off, protowire.ParseError(k))
		}
		var v []byte
		var n uint64
		var m int
		switch typ {
		case protowire.BytesType:
			v, m = protowire.ConsumeBytes(b[k:])
		case protowire.VarintType:
			n, m = protowire.ConsumeVarint(b[k:])
		default:
			m = protowire.ConsumeFieldValue(num, typ, b[k:])
		}
		if m < 0 {
			return fmt.Errorf("bad field %d at byte %d: %w", num, off, protowire.ParseError(m))
		}
		if err := f(num, typ, v, n); err != nil {
			return err
		}
		b = b[k+m:]
		off += k + m
	}
	return nil
}

// int32s appends a repeated int32 field, packed or not.
func int32s(xs []int32, typ protowire.Type, v []byte, n uint64) ([]int32, error) {
	switch typ {
	case protowire.VarintType:
		return append(xs, int32(n)), nil
	case protowire.BytesType:
		for len(v) > 0 {
			x, m := protowire.ConsumeVarint(v)
			if m < 0 {
				return xs, fmt.Errorf("bad packed int32: %w", protowire.ParseError(m))
			}
			xs = append(xs, int32(x))
			v = v[m:]
		}
		return xs, nil
	}
	return xs, fmt.Errorf("int32 field of wire type %d", typ)
}
