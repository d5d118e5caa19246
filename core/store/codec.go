package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ccd-dev/ccd/core/facts"
)

// The record codec is a compact, reflection-free binary form of Record:
// varints and length-prefixed strings, fields in a fixed order. It decodes
// an order of magnitude faster than gob, which matters for warm starts.
// TestCodecCoversEveryField fails when facts grows a field this file does
// not write.

const codecVersion = 6

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *enc) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// encodeRecord appends r's encoding to buf.
func encodeRecord(buf []byte, r Record) []byte {
	e := &enc{b: buf}
	f := r.Facts
	e.uint(codecVersion)
	e.int(r.Size)
	e.int(r.MTime)
	e.str(f.Path)
	e.str(f.Lang)
	e.str(f.Hash)
	e.int(f.Size)
	e.int(int64(f.Lines))
	e.int(int64(f.SyntaxErrors))
	e.int(int64(f.ErrorLine))
	e.str(f.Package)
	e.str(f.DefaultExport)
	e.str(f.Build)
	e.uint(uint64(len(f.Defs)))
	for i := range f.Defs {
		d := &f.Defs[i]
		e.str(d.Name)
		e.str(d.Qual)
		e.uint(uint64(d.Kind))
		e.int(int64(d.Parent))
		e.int(int64(d.StartLine))
		e.int(int64(d.EndLine))
		e.int(int64(d.StartByte))
		e.int(int64(d.EndByte))
		e.str(d.Signature)
		e.str(d.Owner)
		e.strs(d.Bases)
		e.str(d.Result)
		e.strs(d.Decorators)
	}
	e.uint(uint64(len(f.Imports)))
	for i := range f.Imports {
		im := &f.Imports[i]
		e.str(im.Spec)
		e.str(im.Name)
		e.str(im.Alias)
		e.bool(im.Star)
		e.str(im.Kind)
		e.int(int64(im.Line))
	}
	e.uint(uint64(len(f.Calls)))
	for i := range f.Calls {
		c := &f.Calls[i]
		e.str(c.Name)
		e.str(c.Recv)
		e.bool(c.New)
		e.bool(c.Ref)
		e.int(int64(c.Caller))
		e.int(int64(c.Line))
		e.uint(uint64(c.Arity))
	}
	e.uint(uint64(len(f.Bindings)))
	for i := range f.Bindings {
		b := &f.Bindings[i]
		e.str(b.Name)
		e.str(b.Type)
		e.str(b.FromCall)
		e.str(b.FromExpr)
		e.int(int64(b.Scope))
		e.int(int64(b.Line))
		e.bool(b.Straight)
	}
	e.uint(uint64(len(f.Refs)))
	for i := range f.Refs {
		e.str(f.Refs[i].Recv)
		e.str(f.Refs[i].Name)
		e.int(int64(f.Refs[i].Line))
	}
	e.strs(f.Values)
	return e.b
}

var errShort = errors.New("record truncated")

type dec struct {
	b   []byte
	err error
}

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) str() string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errShort
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) bool() bool {
	if d.err != nil || len(d.b) == 0 {
		d.err = errShort
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// count reads a slice length, refusing lengths the remaining bytes cannot
// hold (a corrupt record must not allocate gigabytes).
func (d *dec) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err = errShort
		return 0
	}
	return int(n)
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// decodeRecord decodes one record; any damage is an error, never a panic.
func decodeRecord(b []byte) (Record, error) {
	d := &dec{b: b}
	if v := d.uint(); v != codecVersion {
		return Record{}, fmt.Errorf("record codec version %d", v)
	}
	var r Record
	f := &facts.File{}
	r.Facts = f
	r.Size, r.MTime = d.int(), d.int()
	f.Path, f.Lang, f.Hash = d.str(), d.str(), d.str()
	f.Size, f.Lines, f.SyntaxErrors, f.ErrorLine = d.int(), int(d.int()), int(d.int()), int(d.int())
	f.Package, f.DefaultExport = d.str(), d.str()
	f.Build = d.str()
	if n := d.count(); n > 0 {
		f.Defs = make([]facts.Def, n)
		for i := range f.Defs {
			x := &f.Defs[i]
			x.Name, x.Qual = d.str(), d.str()
			x.Kind = facts.DefKind(d.uint())
			x.Parent, x.StartLine, x.EndLine = int(d.int()), int(d.int()), int(d.int())
			x.StartByte, x.EndByte = int(d.int()), int(d.int())
			x.Signature, x.Owner = d.str(), d.str()
			x.Bases = d.strs()
			x.Result = d.str()
			x.Decorators = d.strs()
		}
	}
	if n := d.count(); n > 0 {
		f.Imports = make([]facts.Import, n)
		for i := range f.Imports {
			x := &f.Imports[i]
			x.Spec, x.Name, x.Alias = d.str(), d.str(), d.str()
			x.Star = d.bool()
			x.Kind = d.str()
			x.Line = int(d.int())
		}
	}
	if n := d.count(); n > 0 {
		f.Calls = make([]facts.Call, n)
		for i := range f.Calls {
			x := &f.Calls[i]
			x.Name, x.Recv = d.str(), d.str()
			x.New = d.bool()
			x.Ref = d.bool()
			x.Caller, x.Line = int(d.int()), int(d.int())
			x.Arity = uint8(d.uint())
		}
	}
	if n := d.count(); n > 0 {
		f.Bindings = make([]facts.Binding, n)
		for i := range f.Bindings {
			x := &f.Bindings[i]
			x.Name, x.Type, x.FromCall, x.FromExpr = d.str(), d.str(), d.str(), d.str()
			x.Scope, x.Line = int(d.int()), int(d.int())
			x.Straight = d.bool()
		}
	}
	if n := d.count(); n > 0 {
		f.Refs = make([]facts.Ref, n)
		for i := range f.Refs {
			x := &f.Refs[i]
			x.Recv, x.Name = d.str(), d.str()
			x.Line = int(d.int())
		}
	}
	f.Values = d.strs()
	if d.err != nil {
		return Record{}, d.err
	}
	if len(d.b) != 0 {
		return Record{}, fmt.Errorf("record has %d trailing bytes", len(d.b))
	}
	return r, nil
}
