package parse

import (
	"container/list"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"
)

// DefaultTreeCacheSize is how many trees a cache keeps when asked for none:
// enough for the files an agent edits in a row.
const DefaultTreeCacheSize = 16

// treeCacheBytes bounds the source bytes whose trees a cache keeps. A
// tree takes about 17 times its source in C memory (net/http/server.go:
// 2.2 MB for 128 KB), so this keeps a cache under about 70 MB even when
// the files are of the largest size indexed.
const treeCacheBytes = 4 << 20

// TreeCache keeps the syntax trees of recently parsed files, with the
// (UTF-8) text each was parsed from, so that ParseWith can reparse an
// edited file incrementally. It is safe for concurrent use: a tree is
// taken out of the cache while a parse uses it, so no two goroutines ever
// share one. It holds at most its size in trees, of at most 4 MB of source
// in all (but always the last one), and frees (closes) the least recently
// used tree when it needs room.
//
// Trees live in C memory, which Go's collector does not see: a cache that
// becomes garbage is freed by go-tree-sitter's finalizers eventually, but
// Close frees everything at once.
type TreeCache struct {
	mu       sync.Mutex
	max      int
	maxBytes int // of source
	bytes    int
	entries  map[treeKey]*list.Element // of *cachedTree
	lru      list.List                 // front: most recently used
	closed   bool

	incremental, full, fallback, same, closes atomic.Int64
}

// treeKey names a cached tree: the same path can be parsed as two
// languages (a header read as C and as C++).
type treeKey struct{ path, lang string }

// cachedTree is a tree with the text it was parsed from.
type cachedTree struct {
	key  treeKey
	src  []byte
	tree *sitter.Tree
}

// TreeCacheStats says how the parses that used a cache went. Tests use it
// to check that reuse really happens.
type TreeCacheStats struct {
	Incremental int // parses that edited a cached tree and kept the result
	Full        int // parses from scratch: no cached tree, or one with syntax errors
	Fallback    int // incremental parses redone from scratch (the new tree had errors)
	Unchanged   int // parses of the very text of the cached tree (no parse at all)
	Closed      int // cached trees freed (evicted, replaced, reparsed or at Close)
	Cached      int // trees held now
}

// NewTreeCache returns a cache of at most max trees (DefaultTreeCacheSize
// when max < 1).
func NewTreeCache(max int) *TreeCache {
	if max < 1 {
		max = DefaultTreeCacheSize
	}
	return &TreeCache{max: max, maxBytes: treeCacheBytes, entries: map[treeKey]*list.Element{}}
}

// Stats returns the counters of the cache.
func (c *TreeCache) Stats() TreeCacheStats {
	c.mu.Lock()
	n := len(c.entries)
	c.mu.Unlock()
	return TreeCacheStats{
		Incremental: int(c.incremental.Load()),
		Full:        int(c.full.Load()),
		Fallback:    int(c.fallback.Load()),
		Unchanged:   int(c.same.Load()),
		Closed:      int(c.closes.Load()),
		Cached:      n,
	}
}

// Has reports whether the cache holds a tree of the file.
func (c *TreeCache) Has(relpath, lang string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[treeKey{relpath, lang}]
	return ok
}

// Close frees every tree. The cache stays usable as an empty cache that
// keeps nothing: later parses through it are full parses.
func (c *TreeCache) Close() {
	c.mu.Lock()
	var drop []*cachedTree
	for e := c.lru.Front(); e != nil; e = e.Next() {
		drop = append(drop, e.Value.(*cachedTree))
	}
	c.lru.Init()
	c.entries = map[treeKey]*list.Element{}
	c.bytes = 0
	c.closed = true
	c.mu.Unlock()
	for _, t := range drop {
		c.free(t.tree)
	}
}

// take removes the tree of a file from the cache and hands it to the
// caller, who must put it back or close it; nil when there is none.
func (c *TreeCache) take(k treeKey) *cachedTree {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil {
		return nil
	}
	delete(c.entries, k)
	c.lru.Remove(e)
	t := e.Value.(*cachedTree)
	c.bytes -= len(t.src)
	return t
}

// put stores a tree and its text as the most recently used, freeing the
// tree it replaces and the least recently used ones beyond the size. The
// cache owns the tree from then on.
func (c *TreeCache) put(t *cachedTree) {
	var drop []*sitter.Tree
	c.mu.Lock()
	if c.closed {
		drop = append(drop, t.tree)
	} else {
		if e := c.entries[t.key]; e != nil {
			// Another goroutine parsed the same file meanwhile.
			old := e.Value.(*cachedTree)
			drop = append(drop, old.tree)
			c.bytes -= len(old.src)
			c.lru.Remove(e)
		}
		c.entries[t.key] = c.lru.PushFront(t)
		c.bytes += len(t.src)
		for c.lru.Len() > c.max || (c.bytes > c.maxBytes && c.lru.Len() > 1) {
			e := c.lru.Back()
			old := e.Value.(*cachedTree)
			c.lru.Remove(e)
			delete(c.entries, old.key)
			c.bytes -= len(old.src)
			drop = append(drop, old.tree)
		}
	}
	c.mu.Unlock()
	// Freeing a big tree takes a millisecond or two: not under the lock.
	for _, tr := range drop {
		c.free(tr)
	}
}

func (c *TreeCache) free(t *sitter.Tree) {
	t.Close()
	c.closes.Add(1)
}
