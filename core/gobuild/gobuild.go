// Package gobuild reads Go build constraints: which files a build for
// another system, architecture or tag set would take, and whether the
// default build (the host's GOOS and GOARCH, gc, cgo, no other tags)
// takes a file. It reads text only (no go/build context, no toolchain).
package gobuild

import (
	"bufio"
	"bytes"
	"go/build/constraint"
	"path"
	"runtime"
	"strconv"
	"strings"
)

// knownOS and knownArch are the GOOS and GOARCH values a file name
// suffix can name (go tool dist list, plus the historical ones go/build
// still recognises in names).
var knownOS = set("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")

var knownArch = set("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

// unixOS are the systems the "unix" tag stands for.
var unixOS = set("aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris")

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// FileConstraint is the build constraint of a Go file, as one
// expression: its //go:build line and what its name's _GOOS, _GOARCH or
// _GOOS_GOARCH suffix says ("windows", "linux && arm64", "(unix && !js)
// && amd64"); "" when a file is in every build.
func FileConstraint(relpath string, src []byte) string {
	var parts []string
	if n := nameConstraint(relpath); n != "" {
		parts = append(parts, n)
	}
	if e := buildLine(src); e != "" {
		if len(parts) > 0 {
			e = "(" + e + ")"
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, " && ")
}

// nameConstraint is what a Go file name says of its build: name_GOOS.go,
// name_GOARCH.go, name_GOOS_GOARCH.go (and the same before _test.go).
func nameConstraint(relpath string) string {
	name := strings.TrimSuffix(path.Base(relpath), ".go")
	name = strings.TrimSuffix(name, "_test")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return ""
	}
	l := strings.Split(name[i:], "_") // the part before the first _ never counts
	n := len(l)
	if n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]] {
		return l[n-2] + " && " + l[n-1]
	}
	if n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]) {
		return l[n-1]
	}
	return ""
}

// buildLine returns the expression of the //go:build line in a Go file's
// header (the comments before the package clause), "" when there is none.
func buildLine(src []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	inBlock := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case inBlock:
			if i := strings.Index(line, "*/"); i >= 0 {
				inBlock = false
			}
			continue
		case line == "":
			continue
		case strings.HasPrefix(line, "/*"):
			inBlock = !strings.Contains(line[2:], "*/")
			continue
		case !strings.HasPrefix(line, "//"):
			return "" // the package clause, or code: the header is over
		}
		if constraint.IsGoBuild(line) {
			if x, err := constraint.Parse(line); err == nil {
				return x.String()
			}
			return ""
		}
	}
	return ""
}

// Default reports whether the default build takes a file with
// constraint expr: GOOS and GOARCH of this machine, the gc compiler, cgo,
// every released go1.N tag, no custom tags. An expression that does not
// parse is taken (no file is hidden by a typo).
func Default(expr string) bool {
	if expr == "" {
		return true
	}
	x, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return true
	}
	return x.Eval(func(tag string) bool {
		switch tag {
		case runtime.GOOS, runtime.GOARCH, "gc", "cgo":
			return true
		case "unix":
			return unixOS[runtime.GOOS]
		}
		if v, ok := strings.CutPrefix(tag, "go1."); ok {
			n, err := strconv.Atoi(v)
			return err == nil && n <= goMinor()
		}
		return false
	})
}

// goMinor is the minor version of the Go release this binary was built
// with (26 for go1.26.8).
func goMinor() int {
	v := strings.TrimPrefix(runtime.Version(), "go1.")
	if i := strings.IndexAny(v, ".rc beta"); i >= 0 {
		v = v[:i]
	}
	n, _ := strconv.Atoi(v)
	return n
}
