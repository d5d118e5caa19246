package store

import (
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A store's file may be truncated, replaced or deleted while the daemon
// has it mapped (a person cleaning up, a checkout, another tool); reading
// the mapping past a truncation raises SIGBUS, which used to kill the
// daemon on its next save. Every operation first checks that the file on
// disk is still the one mapped and at least as long, and reopens it when
// not (a file that is no longer usable is moved aside as on open); a fault
// on the mapping during an operation becomes an error and the next
// operation reopens.

// fileID identifies a file: device, inode and size.
type fileID struct {
	dev, ino uint64
	size     int64
}

func identify(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	id := fileID{size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(st.Dev), st.Ino
	}
	return id, nil
}

// stale reports whether the file at s.Path is no longer the mapped one.
func (s *Store) stale() bool {
	if s.broken.Load() {
		return true
	}
	id, err := identify(s.Path)
	return err != nil || id.dev != s.id.dev || id.ino != s.id.ino || id.size < s.size.Load()
}

// with runs fn on the database after making sure it maps the file on
// disk, turning a fault on the mapping into an error.
func (s *Store) with(fn func(db *bolt.DB) error) (err error) {
	if s.stale() {
		if err := s.reopen(); err != nil {
			return err
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			s.broken.Store(true)
			err = fmt.Errorf("store %s: the database file changed while mapped (%v); it is reopened on the next use", s.Path, r)
		}
	}()
	err = fn(s.db)
	if id, ierr := identify(s.Path); ierr == nil && id.ino == s.id.ino && id.size > s.size.Load() {
		s.size.Store(id.size) // bbolt grew it
	}
	return err
}

// reopen closes the mapping and opens the file at s.Path again, creating
// it when it is gone and moving it aside when it is not usable.
func (s *Store) reopen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stale() {
		return nil // another operation reopened it
	}
	if _, err := os.Stat(s.Path); os.IsNotExist(err) {
		// Deleted (the workspace being removed, a person cleaning up):
		// not made again from here; the next open of the workspace
		// makes a new one.
		return fmt.Errorf("store %s: the database file was deleted; not recreating it", s.Path)
	}
	s.db.Close()
	db, err := open(s.Path)
	if err != nil {
		if isLocked(err) {
			return inUse(s.Path)
		}
		aside := fmt.Sprintf("%s.bad-%s", s.Path, time.Now().UTC().Format("20060102T150405"))
		os.Rename(s.Path, aside)
		if db, err = open(s.Path); err != nil {
			return fmt.Errorf("store %s: reopen: %w", s.Path, err)
		}
	}
	s.db = db.db
	s.id, _ = identify(s.Path)
	s.size.Store(s.id.size)
	s.broken.Store(false)
	s.epoch.Add(1)
	return nil
}
