package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/store"
)

// boardWith is a board holding n claims.
func boardWith(t *testing.T, n int) []byte {
	t.Helper()
	b := board.New()
	for i := 0; i < n; i++ {
		if _, _, err := b.Claim(board.Finding, "finding "+string(rune('a'+i%26))); err != nil {
			t.Fatal(err)
		}
	}
	data, err := b.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestBoardRecovery: a board blob that does not decode falls back to the
// backup beside the database; when neither decodes, the board starts over
// but its first save keeps a backup that held more.
func TestBoardRecovery(t *testing.T) {
	for _, c := range []struct {
		name         string
		backup       []byte
		wantClaims   int
		wantKeptBaks int
	}{
		{"backup decodes", nil, 7, 0},
		{"backup unreadable too", []byte("{not json"), 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			st, err := store.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.PutBlob(boardKey, []byte("\x00\x01garbage")); err != nil {
				t.Fatal(err)
			}
			backup := c.backup
			if backup == nil {
				backup = boardWith(t, 7)
			}
			dir := filepath.Join(root, store.Dir)
			os.WriteFile(filepath.Join(dir, boardBackup), backup, 0o600)
			w := &Workspace{root: root}
			w.persist.st = st
			b, err := w.Board()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(b.Snapshot().Claims); got != c.wantClaims {
				t.Fatalf("loaded %d claims, want %d", got, c.wantClaims)
			}
			if _, err := os.Stat(filepath.Join(dir, "board.unreadable.json")); err != nil {
				t.Errorf("the unreadable bytes were not kept: %v", err)
			}
		})
	}
	// A board that started over (nothing decoded) and a backup written
	// since by another path with more in it: the save keeps that backup.
	root := t.TempDir()
	st, err := store.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.PutBlob(boardKey, []byte("garbage"))
	dir := filepath.Join(root, store.Dir)
	os.WriteFile(filepath.Join(dir, boardBackup), []byte("garbage too"), 0o600)
	w := &Workspace{root: root}
	w.persist.st = st
	b, _ := w.Board()
	os.WriteFile(filepath.Join(dir, boardBackup), boardWith(t, 103), 0o600)
	b.Claim(board.Question, "one new claim")
	if err := w.SaveBoard(b); err != nil {
		t.Fatal(err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "board.bak-*.json"))
	if len(kept) != 1 {
		t.Fatalf("backups kept: %v, want the one with 103 claims", kept)
	}
	data, _ := os.ReadFile(kept[0])
	prev, err := board.Unmarshal(data)
	if err != nil || len(prev.Snapshot().Claims) != 103 {
		t.Fatalf("kept backup: %v claims, err %v", len(prev.Snapshot().Claims), err)
	}
}
