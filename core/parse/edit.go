package parse

/*
#include <stdint.h>

// The tree-sitter edit record (api.h, stable ABI), under a name of ours.
typedef struct { uint32_t row; uint32_t column; } ccd_point;
typedef struct {
	uint32_t start_byte, old_end_byte, new_end_byte;
	ccd_point start_point, old_end_point, new_end_point;
} ccd_input_edit;

void ts_tree_edit(void *tree, const ccd_input_edit *edit);

static void ccd_tree_edit(void *tree, uint32_t sb, uint32_t ob, uint32_t nb,
		uint32_t sr, uint32_t sc, uint32_t orow, uint32_t ocol, uint32_t nrow, uint32_t ncol) {
	ccd_input_edit e = {sb, ob, nb, {sr, sc}, {orow, ocol}, {nrow, ncol}};
	ts_tree_edit(tree, &e);
}
*/
import "C"

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// textEdit is the one edit that turns an old text into a new one: bytes
// [start, oldEnd) of the old text became [start, newEnd) of the new.
type textEdit struct {
	start, oldEnd, newEnd uint32
	startPt, oldEndPt     sitter.Point
	newEndPt              sitter.Point
}

// diffTexts finds the single edit between two texts: their longest common
// prefix, then the longest common suffix of the rest, widened to whole
// UTF-8 characters. ok is false when the texts are equal.
func diffTexts(old, cur []byte) (e textEdit, ok bool) {
	n := min(len(old), len(cur))
	p := 0
	for p < n && old[p] == cur[p] {
		p++
	}
	if p == len(old) && p == len(cur) {
		return e, false
	}
	// Never split a character: the prefix and the suffix are the same bytes
	// in both texts, so one test decides for both.
	for p > 0 && p < len(cur) && !utf8.RuneStart(cur[p]) {
		p--
	}
	for p > 0 && p == len(cur) && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == cur[len(cur)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(old[len(old)-s]) {
		s--
	}
	e.start, e.oldEnd, e.newEnd = uint32(p), uint32(len(old)-s), uint32(len(cur)-s)
	e.startPt = pointAt(cur, 0, sitter.Point{}, p)
	e.oldEndPt = pointAt(old, p, e.startPt, len(old)-s)
	e.newEndPt = pointAt(cur, p, e.startPt, len(cur)-s)
	return e, true
}

// pointAt is the row and byte column of offset off of text, counting on
// from the point from of offset at.
func pointAt(text []byte, at int, from sitter.Point, off int) sitter.Point {
	seg := text[at:off]
	nl := bytes.Count(seg, []byte{'\n'})
	if nl == 0 {
		return sitter.Point{Row: from.Row, Column: from.Column + uint32(len(seg))}
	}
	last := bytes.LastIndexByte(seg, '\n')
	return sitter.Point{Row: from.Row + uint32(nl), Column: uint32(len(seg) - last - 1)}
}

// editTree applies e to t. It calls tree-sitter directly: the binding's
// EditInput passes the old end point as the new one. (The reparse re-lexes
// the tokens an edit touches, which seems to repair the rows, but the
// edited tree should be right by itself.)
func editTree(t *sitter.Tree, e textEdit) {
	// go-tree-sitter's BaseTree starts with the C tree pointer.
	ct := *(*unsafe.Pointer)(unsafe.Pointer(t.BaseTree))
	C.ccd_tree_edit(ct, C.uint32_t(e.start), C.uint32_t(e.oldEnd), C.uint32_t(e.newEnd),
		C.uint32_t(e.startPt.Row), C.uint32_t(e.startPt.Column),
		C.uint32_t(e.oldEndPt.Row), C.uint32_t(e.oldEndPt.Column),
		C.uint32_t(e.newEndPt.Row), C.uint32_t(e.newEndPt.Column))
}
