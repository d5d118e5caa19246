package config

import (
	"strings"
	"testing"
	"time"
)

// TestLoadDaemon: the daemon's knobs come from the environment, a bad
// value keeps the default (a bad idle timeout is an error, and the other
// knobs are still read).
func TestLoadDaemon(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		check   func(Daemon) bool
		wantErr string
	}{
		{"defaults", nil, func(d Daemon) bool { return d == DefaultDaemon() || d.LSPServers != "" }, ""},
		{"set", map[string]string{"CCD_IDLE_TIMEOUT": "0", "CCD_DEBOUNCE_MS": "7", "CCD_IDLE_GC_MS": "0", "CCD_MAX_WORKSPACES": "2",
			"CCD_LOG_MAX": "700", "CCD_LSP": "off", "CCD_LSP_SERVERS": "/t.json", "CCD_CPUPROFILE": "/p",
			"CCD_MEMPROFILE": "/m", "CCD_NO_DAEMON": "1", "CCD_TEST_WATCH_DELAY_MS": "15", "CCD_TEST_NO_INOTIFY": "1"},
			func(d Daemon) bool {
				return d.IdleTimeout == 0 && d.Debounce == 7*time.Millisecond && d.IdleGC == 0 && d.MaxWorkspaces == 2 &&
					d.LogMax == 700 && !d.LSP && d.LSPServers == "/t.json" && d.CPUProfile == "/p" &&
					d.MemProfile == "/m" && d.NoDaemon && d.WatchDelay == 15*time.Millisecond && d.NoInotify
			}, ""},
		{"bad values keep defaults", map[string]string{"CCD_DEBOUNCE_MS": "-1", "CCD_MAX_WORKSPACES": "0", "CCD_LOG_MAX": "x", "CCD_LSP": "auto"},
			func(d Daemon) bool {
				return d.Debounce == 50*time.Millisecond && d.MaxWorkspaces == 32 && d.LogMax == 10<<20 && d.LSP
			}, ""},
		{"bad idle timeout", map[string]string{"CCD_IDLE_TIMEOUT": "soon", "CCD_MAX_WORKSPACES": "3"},
			func(d Daemon) bool { return d.IdleTimeout == 30*time.Minute && d.MaxWorkspaces == 3 }, "CCD_IDLE_TIMEOUT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"CCD_IDLE_TIMEOUT", "CCD_DEBOUNCE_MS", "CCD_IDLE_GC_MS", "CCD_MAX_WORKSPACES", "CCD_LOG_MAX",
				"CCD_LSP", "CCD_LSP_SERVERS", "CCD_CPUPROFILE", "CCD_MEMPROFILE", "CCD_NO_DAEMON", "CCD_TEST_WATCH_DELAY_MS", "CCD_TEST_NO_INOTIFY"} {
				t.Setenv(k, c.env[k])
			}
			d, err := LoadDaemon()
			if (err != nil) != (c.wantErr != "") || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("err %v, want %q", err, c.wantErr)
			}
			if !c.check(d) {
				t.Errorf("got %+v", d)
			}
		})
	}
}
