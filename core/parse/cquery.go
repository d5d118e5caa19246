package parse

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>

// Declarations of the tree-sitter C API this file uses. The definitions are
// compiled into github.com/smacker/go-tree-sitter and linked into the same
// binary; the struct layouts are tree-sitter's stable ABI (api.h).
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;
typedef struct TSTree TSTree;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { TSNode node; uint32_t index; } TSQueryCapture;
typedef struct { uint32_t id; uint16_t pattern_index; uint16_t capture_count; const TSQueryCapture *captures; } TSQueryMatch;

TSQueryCursor *ts_query_cursor_new(void);
void ts_query_cursor_delete(TSQueryCursor *);
void ts_query_cursor_exec(TSQueryCursor *, const TSQuery *, TSNode);
bool ts_query_cursor_next_match(TSQueryCursor *, TSQueryMatch *);
uint32_t ts_node_start_byte(TSNode);
uint32_t ts_node_end_byte(TSNode);
TSPoint ts_node_start_point(TSNode);
TSPoint ts_node_end_point(TSNode);
uint16_t ts_node_symbol(TSNode);

typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
void ts_tree_cursor_reset(TSTreeCursor *, TSNode);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);
bool ts_node_is_named(TSNode);
bool ts_node_is_extra(TSNode);
uint32_t ts_node_named_child_count(TSNode);

// growable output of ccd_run_query.
typedef struct { uint32_t *buf; size_t len, cap; bool failed; } ccd_out;

static bool ccd_reserve(ccd_out *o, size_t n) {
	if (o->failed) return false;
	if (o->len + n <= o->cap) return true;
	size_t cap = o->cap;
	while (o->len + n > cap) cap *= 2;
	uint32_t *nb = realloc(o->buf, cap * sizeof(uint32_t));
	if (!nb) { o->failed = true; return false; }
	o->buf = nb;
	o->cap = cap;
	return true;
}

static void ccd_put_node(ccd_out *o, uint32_t index, TSNode n) {
	TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
	uint32_t *b = o->buf + o->len;
	b[0] = index;
	b[1] = ts_node_start_byte(n);
	b[2] = ts_node_end_byte(n);
	b[3] = s.row;
	b[4] = e.row;
	b[5] = e.column;
	b[6] = ts_node_symbol(n);
	o->len += 7;
}

// CCD_SUB marks a record that is not a capture but a named node inside
// one (see ccd_expand): its index word holds the mark, whether the node
// is an extra (a comment, a line continuation, an error), its depth below
// the capture and its field.
#define CCD_SUB 0x80000000u
#define CCD_SUB_EXTRA 0x40000000u

// ccd_put_sub appends the cursor's node n, depth levels below a capture.
static bool ccd_put_sub(ccd_out *o, TSTreeCursor *tc, uint32_t depth, TSNode n) {
	if (!ccd_reserve(o, 7)) return false;
	uint32_t extra = ts_node_is_extra(n) ? CCD_SUB_EXTRA : 0;
	ccd_put_node(o, CCD_SUB | extra | (depth << 16) | ts_tree_cursor_current_field_id(tc), n);
	return true;
}

// ccd_expand appends the named nodes below root, in document order, down
// to maxd levels. A node at depth d (root's children are at 1) is entered
// when bit d of descend[its symbol] is set, and only its first named child
// is listed when bit 4+d is: what is read below a callee or an argument
// list depends on where a node stands.
static void ccd_expand(ccd_out *o, TSTreeCursor *tc, TSNode root, uint32_t maxd, const uint8_t *descend, uint32_t nsym) {
	if (ts_node_named_child_count(root) == 0) return;
	ts_tree_cursor_reset(tc, root);
	if (!ts_tree_cursor_goto_first_child(tc)) return;
	uint32_t depth = 1;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(tc);
		bool entered = false;
		if (ts_node_is_named(n)) {
			if (!ccd_put_sub(o, tc, depth, n)) return;
			uint16_t sym = ts_node_symbol(n);
			uint8_t mask = sym < nsym ? descend[sym] : 0;
			if (depth < maxd && (mask & (1u << depth)) && ts_tree_cursor_goto_first_child(tc)) {
				depth++;
				entered = true;
			} else if (depth < maxd && (mask & (1u << (4 + depth))) && ts_tree_cursor_goto_first_child(tc)) {
				do {
					TSNode k = ts_tree_cursor_current_node(tc);
					if (ts_node_is_named(k)) {
						if (!ccd_put_sub(o, tc, depth + 1, k)) return;
						break;
					}
				} while (ts_tree_cursor_goto_next_sibling(tc));
				ts_tree_cursor_goto_parent(tc);
			}
		}
		if (entered) continue;
		while (!ts_tree_cursor_goto_next_sibling(tc)) {
			if (depth == 1) return;
			ts_tree_cursor_goto_parent(tc);
			depth--;
		}
	}
}

// ccd_run_query runs q over root and returns every match flattened into one
// malloc'd array: per match {pattern_index, record_count}, then per record
// {index, start_byte, end_byte, start_row, end_row, end_column, symbol}.
// A record is a capture, or (CCD_SUB) a node inside the capture before it:
// expand[capture index], when not 0, is how many levels below a capture
// its named nodes are listed. One call per file replaces several cgo
// calls per captured node.
static uint32_t *ccd_run_query(TSQueryCursor *cur, const TSQuery *q, TSNode *root, const uint8_t *expand, uint32_t ncap,
		const uint8_t *descend, uint32_t nsym, size_t *out_len) {
	ccd_out o = {malloc(4096 * sizeof(uint32_t)), 0, 4096, false};
	if (!o.buf) { *out_len = 0; return NULL; }
	TSTreeCursor tc;
	bool have_tc = false;
	ts_query_cursor_exec(cur, q, *root);
	TSQueryMatch m;
	while (ts_query_cursor_next_match(cur, &m)) {
		if (!ccd_reserve(&o, 2 + (size_t)m.capture_count * 7)) break;
		size_t head = o.len;
		o.buf[o.len++] = m.pattern_index;
		o.buf[o.len++] = m.capture_count;
		uint32_t records = m.capture_count;
		for (uint16_t i = 0; i < m.capture_count; i++) {
			if (!ccd_reserve(&o, 7)) break;
			TSNode n = m.captures[i].node;
			uint32_t idx = m.captures[i].index;
			ccd_put_node(&o, idx, n);
			if (expand && idx < ncap && expand[idx]) {
				if (!have_tc) { tc = ts_tree_cursor_new(n); have_tc = true; }
				size_t before = o.len;
				ccd_expand(&o, &tc, n, expand[idx], descend, nsym);
				records += (uint32_t)((o.len - before) / 7);
			}
		}
		if (o.failed) break;
		o.buf[head + 1] = records;
	}
	if (have_tc) ts_tree_cursor_delete(&tc);
	if (o.failed) { free(o.buf); *out_len = 0; return NULL; }
	*out_len = o.len;
	return o.buf;
}
*/
import "C"

import (
	"errors"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// cnode is a captured node, copied out of C.
type cnode struct {
	start, end     uint32 // bytes
	startRow       uint32 // 0-based
	endRow, endCol uint32
	sym            uint16
}

func (n cnode) line() int { return int(n.startRow) + 1 }

func (n cnode) endLine() int {
	if n.endCol == 0 && n.endRow > n.startRow {
		return int(n.endRow)
	}
	return int(n.endRow) + 1
}

// cCursor is a query cursor owned by one Parser.
type cCursor struct{ c *C.TSQueryCursor }

func newCCursor() *cCursor { return &cCursor{c: C.ts_query_cursor_new()} }

func (c *cCursor) close() {
	if c.c != nil {
		C.ts_query_cursor_delete(c.c)
		c.c = nil
	}
}

var errQueryAlloc = errors.New("query: out of memory")

// run executes q on root and calls fn for each match with its pattern
// index and captures (valid only during the call).
//
// Captures that x expands are followed by the named nodes below them,
// as records whose index has subMark set (see expansion).
func (c *cCursor) run(q *sitter.Query, root *sitter.Node, x *expansion, fn func(pattern int, caps []capture)) error {
	// go-tree-sitter's Query and Node start with the C handles.
	cq := *(**C.TSQuery)(unsafe.Pointer(q))
	// Copy the C node out of the Go struct (which also holds Go pointers).
	croot := *(*C.TSNode)(unsafe.Pointer(root))
	var n C.size_t
	var exp, desc *C.uint8_t
	var nexp, ndesc C.uint32_t
	if x != nil && len(x.expand) > 0 && len(x.descend) > 0 {
		exp, nexp = (*C.uint8_t)(unsafe.Pointer(&x.expand[0])), C.uint32_t(len(x.expand))
		desc, ndesc = (*C.uint8_t)(unsafe.Pointer(&x.descend[0])), C.uint32_t(len(x.descend))
	}
	buf := C.ccd_run_query(c.c, cq, &croot, exp, nexp, desc, ndesc, &n)
	if buf == nil {
		return errQueryAlloc
	}
	defer C.free(unsafe.Pointer(buf))
	data := unsafe.Slice((*uint32)(unsafe.Pointer(buf)), int(n))
	var caps []capture
	for i := 0; i < len(data); {
		pattern, count := int(data[i]), int(data[i+1])
		i += 2
		caps = caps[:0]
		for k := 0; k < count; k++ {
			d := data[i : i+7]
			caps = append(caps, capture{index: d[0], node: cnode{start: d[1], end: d[2], startRow: d[3], endRow: d[4], endCol: d[5], sym: uint16(d[6])}})
			i += 7
		}
		fn(pattern, caps)
	}
	return nil
}

// capture is one captured node of a match, or a node inside the capture
// before it (index has subMark set; see expansion).
type capture struct {
	index uint32
	node  cnode
}

// subMark and subExtra are bits of a capture's index that mark a node
// inside a capture (see expansion) and an extra node among them (a
// comment, a line continuation, an error).
const (
	subMark  = 0x80000000
	subExtra = 0x40000000
)

// sub reports whether c is a node inside a capture, and then its depth
// below it and its field id.
func (c *capture) sub() (depth int, field uint16, ok bool) {
	if c.index&subMark == 0 {
		return 0, 0, false
	}
	return int(c.index>>16) & 0x3fff, uint16(c.index), true
}

// expansion says which captures the query run lists the inside of:
// expand by capture index (how many levels below it), descend by symbol
// (at which depths a node of that type is entered: bit d, or bit 4+d for
// its first named child only; at most 3 levels).
type expansion struct {
	expand  []uint8
	descend []uint8
}
