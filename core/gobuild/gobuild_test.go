package gobuild

import (
	"runtime"
	"testing"
)

func TestFileConstraint(t *testing.T) {
	for _, tc := range []struct {
		path, src, want string
	}{
		{"net/fd_unix.go", "package net\n", ""},
		{"os/file_windows.go", "package os\n", "windows"},
		{"os/exec_linux_test.go", "package os\n", "linux"},
		{"runtime/sys_linux_arm64.go", "package runtime\n", "linux && arm64"},
		{"crypto/x_amd64.go", "package x\n", "amd64"},
		{"linux.go", "package x\n", ""},
		{"net/fd_unix.go", "// Copyright\n\n//go:build unix || (js && wasm)\n\npackage net\n", "unix || (js && wasm)"},
		{"os/file_windows.go", "//go:build !race\n\npackage os\n", "windows && (!race)"},
		{"a/b.go", "/* block\n//go:build ignore\n*/\npackage b\n", ""},
		{"a/b.go", "package b\n\n//go:build ignore\n", ""},
		{"a/gen.go", "//go:build ignore\n\npackage main\n", "ignore"},
	} {
		if got := FileConstraint(tc.path, []byte(tc.src)); got != tc.want {
			t.Errorf("FileConstraint(%q, %q) = %q, want %q", tc.path, tc.src, got, tc.want)
		}
	}
}

func TestDefault(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	for _, tc := range []struct {
		expr string
		want bool
	}{
		{"", true},
		{runtime.GOOS, true},
		{other, false},
		{"!" + other, true},
		{runtime.GOOS + " && " + runtime.GOARCH, true},
		{"ignore", false},
		{"go1.1", true},
		{"go1.999", false},
		{"cgo && gc", true},
		{"purego", false},
		{"((", true},
	} {
		if got := Default(tc.expr); got != tc.want {
			t.Errorf("Default(%q) = %v, want %v", tc.expr, got, tc.want)
		}
	}
}
