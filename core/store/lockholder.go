package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// LockHolder returns the process holding a lock on the file at path, from
// the kernel's table of file locks (/proc/locks), and that process's
// command line; pid 0 when no holder is found (not Linux, no lock, or a
// lock held through another mount namespace).
func LockHolder(path string) (pid int, cmdline string) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, ""
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	pid = lockTableHolder(bufio.NewScanner(f), uint64(st.Ino))
	if pid == 0 {
		return 0, ""
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		cmdline = strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	}
	return pid, cmdline
}

// lockTableHolder finds, in the lines of /proc/locks, the pid of a lock on
// inode ino. A line reads
//
//	1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF
//
// where the sixth field is major:minor:inode (blocked waiters, marked
// "->", are skipped).
func lockTableHolder(sc *bufio.Scanner, ino uint64) int {
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] == "->" {
			continue
		}
		parts := strings.Split(f[5], ":")
		if len(parts) != 3 {
			continue
		}
		if n, err := strconv.ParseUint(parts[2], 10, 64); err != nil || n != ino {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}
