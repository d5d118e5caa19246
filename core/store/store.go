// Package store persists a workspace's index in one bbolt file
// (<root>/.codecanvas/ccd.db), so a daemon restart reparses only files
// whose content changed. Layout:
//
//	meta   schema, version, generation, head, config digest
//	files  path → Record (facts + size/mtime stamp) in the codec of codec.go
//
// A corrupt, truncated or newer-schema file is moved aside and a new one
// started; the caller then rebuilds from source. Nothing here panics on
// bad data.
package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/ccd-dev/ccd/core/facts"
)

// Schema is the on-disk layout version; bump it when Record or facts
// change shape.
const Schema = 2

// Dir is the per-workspace state directory.
const Dir = ".codecanvas"

var (
	bucketMeta  = []byte("meta")
	bucketFiles = []byte("files")
)

// Record is one file's persisted state.
type Record struct {
	Facts *facts.File
	Size  int64
	MTime int64
}

// Meta is the workspace-level state.
type Meta struct {
	Schema     int
	Version    string
	Generation uint64
	Head       string
	Config     string // digest of the configuration the facts were made with
}

// Store is an open database.
type Store struct {
	mu   sync.RWMutex // guards db: held shared by operations, exclusively to reopen
	db   *bolt.DB
	Path string
	id   fileID // the file the mapping is of
	size atomic.Int64
	// broken: an operation faulted on the mapping; the next one reopens.
	broken atomic.Bool
	// epoch counts reopens onto another file (see Epoch).
	epoch atomic.Uint64
}

// Epoch changes each time the store reopened its file because the file on
// disk was no longer the one mapped (truncated, replaced): what was saved
// before may be gone, so a caller that saves deltas saves everything again.
func (s *Store) Epoch() uint64 { return s.epoch.Load() }

// ErrMovedAside reports that an unusable database was moved aside (the
// caller logs it and rebuilds).
type ErrMovedAside struct {
	From, To string
	Reason   error
}

func (e *ErrMovedAside) Error() string {
	return fmt.Sprintf("database %s unusable (%v); moved to %s, rebuilding", e.From, e.Reason, e.To)
}

// ErrInUse reports that another process holds the database's lock: the
// caller works without persistence (or says so); the file is left alone.
type ErrInUse struct {
	Path string
	// PID and Cmd name the process holding the lock, when the kernel's
	// lock table says (0 and "" when it does not).
	PID int
	Cmd string
}

// inUse makes the error for the database at path, naming its holder.
func inUse(path string) *ErrInUse {
	e := &ErrInUse{Path: path}
	e.PID, e.Cmd = LockHolder(path)
	return e
}

func (e *ErrInUse) Error() string {
	who := "another process (another ccd daemon, started with another state directory?)"
	if e.PID != 0 {
		who = fmt.Sprintf("process %d (%s)", e.PID, e.Cmd)
	}
	return fmt.Sprintf("database %s is locked by %s; this daemon works without it: nothing it learns is saved. Stop the other daemon (ccd stop with its environment) or use that one", e.Path, who)
}

// Open opens (creating if needed) the database of the workspace at root.
// An unusable database is moved aside and a fresh one opened; the returned
// error is then an *ErrMovedAside alongside a usable store.
func Open(root string) (*Store, error) {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("store: workspace root %s is not a directory", root)
	}
	dir := filepath.Join(root, Dir)
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return nil, fmt.Errorf("store: %w", err)
	}
	excludeFromGit(root)
	path := filepath.Join(dir, "ccd.db")
	s, err := open(path)
	if err == nil {
		return s, nil
	}
	if isLocked(err) {
		// Locked by another process (a second daemon with another state
		// dir): the database is in use, not broken. Never move it aside.
		return nil, inUse(path)
	}
	aside := fmt.Sprintf("%s.bad-%s", path, time.Now().UTC().Format("20060102T150405"))
	if rerr := os.Rename(path, aside); rerr != nil {
		return nil, fmt.Errorf("store %s: %v; and moving it aside failed: %w", path, err, rerr)
	}
	s, err2 := open(path)
	if err2 != nil {
		return nil, fmt.Errorf("store %s: %w", path, err2)
	}
	return s, &ErrMovedAside{From: path, To: aside, Reason: err}
}

// isLocked reports whether err from open says another process holds the
// file's lock.
func isLocked(err error) bool {
	return errors.Is(err, bolt.ErrTimeout) || errors.As(err, new(*ErrInUse))
}

// CheckCommand, when set, returns a command that checks the database file
// at path in another process (the daemon sets it to `ccd check-store`).
// bbolt walks a damaged file's pages in goroutines of its own, where a
// panic cannot be recovered: checked in a child, a damaged file costs the
// child, not the daemon holding every workspace. The command must exit 0
// for a sound file.
var CheckCommand func(path string) *exec.Cmd

// CheckFile opens the database at path read-only and checks every page
// (bbolt's consistency check). Run it in a process of its own: on some
// damage bbolt panics where no recover reaches.
func CheckFile(path string) error {
	if err := preflight(path); err != nil {
		return err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true})
	if errors.Is(err, bolt.ErrTimeout) {
		return inUse(path)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	return checkPages(db)
}

// checkPages runs bbolt's consistency check over every page.
func checkPages(db *bolt.DB) error {
	return db.View(func(tx *bolt.Tx) error {
		for cerr := range tx.Check() {
			return fmt.Errorf("consistency check: %w", cerr)
		}
		return nil
	})
}

// checkApart runs CheckCommand on an existing, non-empty file; checked
// says it did, and the file passed (open need not check it again).
func checkApart(path string) (checked bool, err error) {
	if CheckCommand == nil {
		return false, nil
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return false, nil
	}
	cmd := CheckCommand(path)
	done := make(chan struct{})
	timer := time.AfterFunc(time.Minute, func() {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
		close(done)
	})
	out, err := cmd.CombinedOutput()
	if !timer.Stop() {
		<-done
		return false, nil // a slow check proves nothing either way: open as before
	}
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg)-i < 400 {
			msg = msg[i+1:]
		}
		if len(msg) > 300 {
			msg = msg[:300]
		}
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
			return false, inUse(path) // locked elsewhere: not a verdict on the file
		}
		return false, fmt.Errorf("corrupt database (checked apart: %v): %s", err, msg)
	}
	return true, nil
}

func open(path string) (s *Store, err error) {
	checked, err := checkApart(path)
	if err != nil {
		return nil, err
	}
	// bbolt can panic on corrupt files, and a truncated file faults (SIGBUS)
	// when its mapping is read; both become errors here, never a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("corrupt database: %v", r)
		}
	}()
	if err := preflight(path); err != nil {
		return nil, err
	}
	// NoSync: the store is a cache of what the source tree says. Skipping
	// fsync keeps saves off the edit path; a file damaged by a system crash
	// is detected on open and rebuilt.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, NoSync: true, NoFreelistSync: true})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		m, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketFiles); err != nil {
			return err
		}
		if v := m.Get([]byte("schema")); v != nil {
			n, err := strconv.Atoi(string(v))
			if err != nil || n != Schema {
				return fmt.Errorf("schema %q, this ccd reads %d", v, Schema)
			}
			return nil
		}
		return m.Put([]byte("schema"), []byte(strconv.Itoa(Schema)))
	})
	if err == nil && !checked {
		err = checkPages(db)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	st := &Store{db: db, Path: path}
	st.id, _ = identify(path)
	st.size.Store(st.id.size)
	return st, nil
}

// preflight checks that a bbolt file is as long as its meta pages say, so
// a truncated file is refused before it is mapped.
func preflight(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	const magic = 0xED0CDAED
	head := make([]byte, 64)
	if _, err := f.ReadAt(head, 0); err != nil {
		return fmt.Errorf("truncated database (%d bytes)", st.Size())
	}
	le := binary.LittleEndian
	pageSize := int64(le.Uint32(head[24:]))
	if le.Uint32(head[16:]) != magic || pageSize < 512 || pageSize > 1<<20 {
		return fmt.Errorf("not a ccd database (bad magic or page size)")
	}
	var hwm int64
	for _, off := range []int64{0, pageSize} {
		m := make([]byte, 64)
		if _, err := f.ReadAt(m, off); err != nil {
			return fmt.Errorf("truncated database (%d bytes)", st.Size())
		}
		if le.Uint32(m[16:]) == magic {
			// meta: magic, version, pageSize, flags, root{pgid, seq}, freelist, pgid
			hwm = max(hwm, int64(le.Uint64(m[56:])))
		}
	}
	if need := hwm * pageSize; st.Size() < need {
		return fmt.Errorf("truncated database (%d of %d bytes)", st.Size(), need)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db.Close()
}

// Load reads the meta and every file record. A record that does not
// decode is skipped (its file is simply parsed again).
func (s *Store) Load() (m Meta, recs []Record, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load %s: corrupt database: %v", s.Path, r)
		}
	}()
	type kv struct {
		k string
		v []byte
	}
	var raw []kv
	err = s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			mb := tx.Bucket(bucketMeta)
			m.Schema, _ = strconv.Atoi(string(mb.Get([]byte("schema"))))
			m.Version = string(mb.Get([]byte("version")))
			m.Generation, _ = strconv.ParseUint(string(mb.Get([]byte("generation"))), 10, 64)
			m.Head = string(mb.Get([]byte("head")))
			m.Config = string(mb.Get([]byte("config")))
			return tx.Bucket(bucketFiles).ForEach(func(k, v []byte) error {
				raw = append(raw, kv{string(k), append([]byte(nil), v...)})
				return nil
			})
		})
	})
	if err != nil {
		return m, nil, fmt.Errorf("load %s: %w", s.Path, err)
	}
	// Decode in parallel; a record that does not decode is dropped (its
	// file is simply parsed again).
	out := make([]Record, len(raw))
	ok := make([]bool, len(raw))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(raw); i += workers {
				r, err := decodeRecord(raw[i].v)
				if err == nil && r.Facts.Path == raw[i].k {
					out[i], ok[i] = r, true
				}
			}
		}(w)
	}
	wg.Wait()
	for i := range out {
		if ok[i] {
			recs = append(recs, out[i])
		}
	}
	return m, recs, nil
}

// Save writes the meta, puts changed records and deletes removed paths,
// in one transaction.
func (s *Store) Save(m Meta, put []Record, del []string) error {
	bufs := make([][]byte, len(put))
	for i, r := range put {
		bufs[i] = encodeRecord(nil, r)
	}
	return s.with(func(db *bolt.DB) error {
		return db.Update(func(tx *bolt.Tx) error {
			mb := tx.Bucket(bucketMeta)
			for k, v := range map[string]string{"version": m.Version, "generation": strconv.FormatUint(m.Generation, 10),
				"head": m.Head, "config": m.Config} {
				if err := mb.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
			}
			fb := tx.Bucket(bucketFiles)
			for _, p := range del {
				if err := fb.Delete([]byte(p)); err != nil {
					return err
				}
			}
			for i, r := range put {
				if err := fb.Put([]byte(r.Facts.Path), bufs[i]); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// excludeFromGit adds .codecanvas/ to .git/info/exclude (once).
func excludeFromGit(root string) {
	info := filepath.Join(root, ".git", "info")
	if st, err := os.Stat(filepath.Join(root, ".git")); err != nil || !st.IsDir() {
		return
	}
	p := filepath.Join(info, "exclude")
	b, _ := os.ReadFile(p)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == Dir+"/" || strings.TrimSpace(line) == "/"+Dir+"/" {
			return
		}
	}
	os.MkdirAll(info, 0o755)
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	b = append(b, []byte(Dir+"/\n")...)
	os.WriteFile(p, b, 0o644)
}

// IsMovedAside reports whether err says an unusable database was replaced.
func IsMovedAside(err error) bool {
	var e *ErrMovedAside
	return errors.As(err, &e)
}
