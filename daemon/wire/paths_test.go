package wire

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateDirAndSocket(t *testing.T) {
	wd, _ := os.Getwd()
	cases := []struct {
		name                      string
		home, xdg, socket, dotdir string
		dir, sock, err            string
	}{
		{name: "CCD_HOME", home: "/tmp/h/", dir: "/tmp/h", sock: "/tmp/h/ccd.sock"},
		{name: "CCD_HOME relative", home: "rel/../x", dir: filepath.Join(wd, "x"), sock: filepath.Join(wd, "x", "ccd.sock")},
		{name: "XDG", xdg: "/run/user/7", dir: "/run/user/7/ccd", sock: "/run/user/7/ccd/ccd.sock"},
		{name: "CCD_HOME wins", home: "/a", xdg: "/b", dir: "/a", sock: "/a/ccd.sock"},
		{name: "home", dotdir: "/home/u", dir: "/home/u/.cache/ccd", sock: "/home/u/.cache/ccd/ccd.sock"},
		{name: "CCD_SOCKET", socket: "/tmp/s.sock", dotdir: "/home/u", dir: "/home/u/.cache/ccd", sock: "/tmp/s.sock"},
		{name: "no home", err: "$HOME is not defined"},
		{name: "long socket", socket: "/tmp/" + strings.Repeat("x", 103), dotdir: "/h", dir: "/h/.cache/ccd", err: "108 bytes, over the unix socket limit of 107: set CCD_SOCKET"},
		{name: "long state dir", home: "/tmp/" + strings.Repeat("y", 100), dir: "/tmp/" + strings.Repeat("y", 100), err: "over the unix socket limit"},
		{name: "longest socket", socket: "/" + strings.Repeat("z", 106), dotdir: "/h", dir: "/h/.cache/ccd", sock: "/" + strings.Repeat("z", 106)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("CCD_HOME", c.home)
			t.Setenv("XDG_RUNTIME_DIR", c.xdg)
			t.Setenv("CCD_SOCKET", c.socket)
			t.Setenv("HOME", c.dotdir)
			dir, derr := StateDir()
			sock, serr := SocketPath()
			if c.dir != "" && (derr != nil || dir != c.dir) {
				t.Errorf("state dir %q %v, want %q", dir, derr, c.dir)
			}
			if c.err != "" {
				if serr == nil || !strings.Contains(serr.Error(), c.err) {
					t.Errorf("socket %q: want an error with %q, got %v", sock, c.err, serr)
				}
				return
			}
			if serr != nil || sock != c.sock {
				t.Errorf("socket %q %v, want %q", sock, serr, c.sock)
			}
		})
	}
}

// TestAbsTrustsPWD: like filepath.Abs, a relative CCD_HOME resolves
// against $PWD when $PWD names the working directory (through a symlink).
func TestAbsTrustsPWD(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(real)
	t.Setenv("PWD", link)
	if got, err := abs("h"); err != nil || got != filepath.Join(link, "h") {
		t.Errorf("via $PWD: %q %v", got, err)
	}
	t.Setenv("PWD", "/") // not the working directory: ignored
	want, _ := filepath.EvalSymlinks(real)
	if got, err := abs("h"); err != nil || got != filepath.Join(want, "h") {
		t.Errorf("stale $PWD: %q %v, want %q", got, err, filepath.Join(want, "h"))
	}
}

func TestMkdirAll(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "c")
	if err := mkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", fi, err)
	}
	if err := mkdirAll(dir, 0o700); err != nil {
		t.Errorf("again: %v", err)
	}
	file := filepath.Join(base, "f")
	os.WriteFile(file, nil, 0o600)
	if err := mkdirAll(filepath.Join(file, "x"), 0o700); err == nil {
		t.Errorf("a file in the way is not an error")
	}
	if err := mkdirAll(file, 0o700); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the dir: %v", err)
	}
}
