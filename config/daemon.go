package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Daemon is the knobs of the ccd process, daemon and CLI (the engine's
// are Config's).
type Daemon struct {
	// IdleTimeout stops the daemon after this long without requests
	// while no workspace is indexing; 0 never stops.
	IdleTimeout time.Duration
	// Debounce is how long a burst of file events must be quiet before
	// the graph is updated.
	Debounce time.Duration
	// IdleGC is how long updates and requests must be quiet before the
	// daemon collects garbage between them; 0 turns that off.
	IdleGC time.Duration
	// MaxWorkspaces bounds how many workspaces one daemon holds.
	MaxWorkspaces int
	// LogMax is the size, in bytes, at which daemon.log is rotated.
	LogMax int64
	// LSP says whether language servers may run (CCD_LSP=off: never).
	LSP bool
	// LSPServers is the user's language-server table (a JSON file), ""
	// for the built-in one alone.
	LSPServers string
	// CPUProfile, when set, is where the daemon writes a CPU profile of
	// its whole life (and `ccd bench` one of its run).
	CPUProfile string
	// MemProfile, when set, is where `ccd bench` writes a heap profile.
	MemProfile string
	// NoDaemon makes the CLI work in-process even when a daemon runs.
	NoDaemon bool

	// Test knobs. WatchDelay is a pause between a workspace's index and
	// its watch (proving changes made in between are not lost);
	// NoInotify makes the daemon's watches fail as on a machine out of
	// inotify instances.
	WatchDelay time.Duration
	NoInotify  bool
}

// DefaultDaemon returns the daemon's built-in knobs.
func DefaultDaemon() Daemon {
	return Daemon{IdleTimeout: 30 * time.Minute, Debounce: 50 * time.Millisecond, IdleGC: 100 * time.Millisecond,
		MaxWorkspaces: 32, LogMax: 10 << 20, LSP: true}
}

// LoadDaemon returns the daemon's defaults overridden by the environment:
// CCD_IDLE_TIMEOUT (a Go duration, "0" never stops; a bad value is an
// error), CCD_DEBOUNCE_MS, CCD_IDLE_GC_MS (0 off), CCD_MAX_WORKSPACES,
// CCD_LOG_MAX (bytes), CCD_LSP ("off", "0" or "false": no language
// server), CCD_LSP_SERVERS (else ~/.config/ccd/servers.json when it
// exists), CCD_CPUPROFILE, CCD_MEMPROFILE, CCD_NO_DAEMON ("1") and the
// tests' CCD_TEST_WATCH_DELAY_MS and CCD_TEST_NO_INOTIFY ("1"). Other bad
// values keep the default; with an error, the other knobs are still read.
func LoadDaemon() (Daemon, error) {
	d := DefaultDaemon()
	var err error
	if v := os.Getenv("CCD_IDLE_TIMEOUT"); v != "" {
		if t, perr := time.ParseDuration(v); perr != nil || t < 0 {
			err = fmt.Errorf("CCD_IDLE_TIMEOUT=%q: want a duration like 30m (0 disables)", v)
		} else {
			d.IdleTimeout = t
		}
	}
	if v, err := strconv.Atoi(os.Getenv("CCD_DEBOUNCE_MS")); err == nil && v >= 0 {
		d.Debounce = time.Duration(v) * time.Millisecond
	}
	if v, err := strconv.Atoi(os.Getenv("CCD_IDLE_GC_MS")); err == nil && v >= 0 {
		d.IdleGC = time.Duration(v) * time.Millisecond
	}
	if n, err := strconv.Atoi(os.Getenv("CCD_MAX_WORKSPACES")); err == nil && n > 0 {
		d.MaxWorkspaces = n
	}
	if n, err := strconv.ParseInt(os.Getenv("CCD_LOG_MAX"), 10, 64); err == nil && n > 0 {
		d.LogMax = n
	}
	if v := strings.ToLower(os.Getenv("CCD_LSP")); v == "off" || v == "0" || v == "false" {
		d.LSP = false
	}
	d.LSPServers = os.Getenv("CCD_LSP_SERVERS")
	if d.LSPServers == "" {
		if home, err := os.UserHomeDir(); err == nil {
			p := filepath.Join(home, ".config", "ccd", "servers.json")
			if _, err := os.Stat(p); err == nil {
				d.LSPServers = p
			}
		}
	}
	d.CPUProfile = os.Getenv("CCD_CPUPROFILE")
	d.MemProfile = os.Getenv("CCD_MEMPROFILE")
	d.NoDaemon = os.Getenv("CCD_NO_DAEMON") == "1"
	if ms, err := strconv.Atoi(os.Getenv("CCD_TEST_WATCH_DELAY_MS")); err == nil && ms > 0 {
		d.WatchDelay = time.Duration(ms) * time.Millisecond
	}
	d.NoInotify = os.Getenv("CCD_TEST_NO_INOTIFY") == "1"
	return d, err
}
