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

// ccd_run_query runs q over root and returns every match flattened into one
// malloc'd array: per match {pattern_index, capture_count}, then per capture
// {index, start_byte, end_byte, start_row, end_row, end_column, symbol}.
// One call per file replaces several cgo calls per captured node.
static uint32_t *ccd_run_query(TSQueryCursor *cur, const TSQuery *q, TSNode *root, size_t *out_len) {
	size_t cap = 4096, len = 0;
	uint32_t *buf = malloc(cap * sizeof(uint32_t));
	if (!buf) { *out_len = 0; return NULL; }
	ts_query_cursor_exec(cur, q, *root);
	TSQueryMatch m;
	while (ts_query_cursor_next_match(cur, &m)) {
		size_t need = len + 2 + (size_t)m.capture_count * 7;
		if (need > cap) {
			while (need > cap) cap *= 2;
			uint32_t *nb = realloc(buf, cap * sizeof(uint32_t));
			if (!nb) { free(buf); *out_len = 0; return NULL; }
			buf = nb;
		}
		buf[len++] = m.pattern_index;
		buf[len++] = m.capture_count;
		for (uint16_t i = 0; i < m.capture_count; i++) {
			TSNode n = m.captures[i].node;
			TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
			buf[len++] = m.captures[i].index;
			buf[len++] = ts_node_start_byte(n);
			buf[len++] = ts_node_end_byte(n);
			buf[len++] = s.row;
			buf[len++] = e.row;
			buf[len++] = e.column;
			buf[len++] = ts_node_symbol(n);
		}
	}
	*out_len = len;
	return buf;
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
func (c *cCursor) run(q *sitter.Query, root *sitter.Node, fn func(pattern int, caps []capture)) error {
	// go-tree-sitter's Query and Node start with the C handles.
	cq := *(**C.TSQuery)(unsafe.Pointer(q))
	// Copy the C node out of the Go struct (which also holds Go pointers).
	croot := *(*C.TSNode)(unsafe.Pointer(root))
	var n C.size_t
	buf := C.ccd_run_query(c.c, cq, &croot, &n)
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

// capture is one captured node of a match.
type capture struct {
	index uint32
	node  cnode
}
