package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/store"
)

// boardKey is the store blob that holds a workspace's evidence board.
const boardKey = "board"

// boardBackup is a copy of the board's bytes beside the database, so a
// database moved aside as corrupt does not take the board with it.
const boardBackup = "board.bak.json"

// boardState is a workspace's evidence board, loaded on first use.
type boardState struct {
	once sync.Once
	b    *board.Board
	err  error
	save sync.Mutex // serialises saves so an older copy never wins
	// startedOver: the stored board did not decode and b began empty;
	// a save then keeps a backup that holds more (keepLargerBackup).
	startedOver bool
	ready       atomic.Bool // b is loaded
}

// Board returns the workspace's evidence board, loading it from the
// store (or the backup file) on first use. Every call returns the same
// board for as long as the workspace lives: sessions sharing it share
// one board.
func (w *Workspace) Board() (*board.Board, error) {
	w.board.once.Do(func() {
		defer w.board.ready.Store(true)
		dir := filepath.Join(w.root, store.Dir)
		var data []byte
		if w.persist.st != nil {
			data, _ = w.persist.st.Blob(boardKey)
		}
		backup, _ := os.ReadFile(filepath.Join(dir, boardBackup))
		if data == nil {
			data = backup
		}
		if data == nil {
			w.board.b = board.New()
			return
		}
		b, err := board.Unmarshal(data)
		if err != nil && backup != nil && !bytes.Equal(backup, data) {
			// The store's copy does not decode: the backup beside it
			// may (a damaged page, a half-written blob).
			os.WriteFile(filepath.Join(dir, "board.unreadable.json"), data, 0o600)
			b, err = board.Unmarshal(backup)
			data = backup
		}
		if err != nil {
			// Keep the unreadable bytes for a person to look at; start
			// over, and keep the backup from being replaced by less.
			os.WriteFile(filepath.Join(dir, "board.unreadable.json"), data, 0o600)
			b = board.New()
			w.board.startedOver = true
		}
		w.board.b = b
	})
	return w.board.b, w.board.err
}

// boardSize counts what a board holds, to compare a backup with what
// would replace it.
func boardSize(s board.Snapshot) int {
	return len(s.Evidence) + len(s.Claims) + len(s.Decisions) + len(s.Analyses) + len(s.Tasks)
}

// keepLargerBackup moves the backup aside (board.bak-TIME.json) when it
// holds more than the board about to replace it: a board that started over
// after a failed load must not erase what the backup still has.
func keepLargerBackup(dir string, b *board.Board) {
	path := filepath.Join(dir, boardBackup)
	old, err := os.ReadFile(path)
	if err != nil {
		return
	}
	prev, err := board.Unmarshal(old)
	if err != nil {
		return
	}
	if boardSize(prev.Snapshot()) > boardSize(b.Snapshot()) {
		os.Rename(path, filepath.Join(dir, "board.bak-"+time.Now().UTC().Format("20060102T150405.000")+".json"))
	}
}

// SaveBoard persists b: into the store, the backup file and state.json.
// Saves are serialised, so an older copy never wins.
func (w *Workspace) SaveBoard(b *board.Board) error {
	w.board.save.Lock()
	defer w.board.save.Unlock()
	if note := w.persist.note.Load(); note != nil && w.persist.st == nil {
		// Another daemon holds this workspace's database, and its board
		// files too: writing them would overwrite what that daemon saves.
		return fmt.Errorf("not saved: %s", *note)
	}
	data, err := b.Marshal()
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	dir, err := stateDir(w.root)
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	var errs []error
	if w.persist.st != nil {
		if err := w.persist.st.PutBlob(boardKey, data); err != nil {
			errs = append(errs, err)
		}
	}
	if w.board.startedOver {
		keepLargerBackup(dir, b)
	}
	if err := writeAtomic(filepath.Join(dir, boardBackup), data); err != nil {
		errs = append(errs, err)
	}
	var st bytes.Buffer
	if err := b.WriteState(&st); err != nil {
		errs = append(errs, err)
	} else if err := writeAtomic(filepath.Join(dir, "state.json"), st.Bytes()); err != nil {
		errs = append(errs, err)
	} else {
		w.mirrors.copy("state.json", st.Bytes())
	}
	return errors.Join(errs...)
}
