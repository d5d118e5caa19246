package search

// tombstoneCap bounds how many removed handles expand can still explain.
const tombstoneCap = 8192

// tombstone remembers a handle that disappeared from the index (its file
// was removed, or the definition renamed or deleted), so expand can say
// "stale" and offer the handle that replaced it instead of "unknown".
type tombstone struct {
	id    string
	path  string
	typ   nodeType
	name  string
	key   string
	lineA int
}

// tombstones is a bounded FIFO keyed by id. Guarded by the index lock.
type tombstones struct {
	byID  map[string]tombstone
	order []string
	cap   int
}

func (t *tombstones) init(n int) {
	t.byID = map[string]tombstone{}
	t.cap = n
}

func (t *tombstones) add(x tombstone) {
	if _, ok := t.byID[x.id]; !ok {
		t.order = append(t.order, x.id)
	}
	t.byID[x.id] = x
	for len(t.order) > t.cap {
		delete(t.byID, t.order[0])
		t.order = t.order[1:]
	}
}

// forget drops the tombstone of an id that exists again.
func (t *tombstones) forget(id string) {
	delete(t.byID, id)
}

func (t *tombstones) get(id string) (tombstone, bool) {
	x, ok := t.byID[id]
	return x, ok
}
