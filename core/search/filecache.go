package search

import (
	"errors"
	"io/fs"
)

// cachedFile is a file as seen during one query.
type cachedFile struct {
	content []byte // what was indexed, read from disk; nil if not read or not matching
	read    bool   // a read was attempted
	li      *lineIndex
	changed bool // readable, but no longer what was indexed
	gone    bool // no longer exists
}

// lines returns the line index of the content, or nil without content.
func (x *cachedFile) lines() *lineIndex {
	if x.li == nil && x.content != nil {
		x.li = newLineIndex(x.content)
	}
	return x.li
}

// fileCache reads each file at most once per query. The caller holds the
// index's read lock.
type fileCache struct {
	ix    *Index
	files map[string]*cachedFile
}

func (ix *Index) newFileCache() *fileCache {
	return &fileCache{ix: ix, files: map[string]*cachedFile{}}
}

func (c *fileCache) entry(f *fileEntry) *cachedFile {
	x, ok := c.files[f.path]
	if !ok {
		x = &cachedFile{}
		c.files[f.path] = x
	}
	return x
}

// check tells whether f changed on disk since it was indexed. When the
// file's size and modification time are those recorded the last time its
// content was verified, a stat is enough; otherwise the file is read and
// hashed (and, if it matches, the stat recorded for next time: the stat is
// taken before the read, so a write racing the read is caught next time).
func (c *fileCache) check(f *fileEntry) *cachedFile {
	x := c.entry(f)
	if x.read || c.ix.opts.Read == nil {
		return x
	}
	var st *stamp
	if c.ix.opts.Stat != nil {
		fi, err := c.ix.opts.Stat(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			x.gone, x.read = true, true
			return x
		}
		if err == nil {
			st = &stamp{fi.Size(), fi.ModTime().UnixNano()}
			if v := f.verified.Load(); v != nil && *v == *st {
				return x
			}
		}
	}
	c.load(f, x)
	if x.content != nil && st != nil {
		f.verified.Store(st)
	}
	return x
}

// get returns f's content if it is readable and still what was indexed.
func (c *fileCache) get(f *fileEntry) *cachedFile {
	x := c.entry(f)
	if !x.read && c.ix.opts.Read != nil {
		c.load(f, x)
	}
	return x
}

func (c *fileCache) load(f *fileEntry, x *cachedFile) {
	x.read = true
	b, err := c.ix.opts.Read(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		x.gone = true
	case err != nil:
	default:
		b = normalize(b)
		if hashBytes(b) == f.hash {
			x.content = b
		} else {
			x.changed = true
		}
	}
}
