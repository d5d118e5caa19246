package config

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

var envVars = []string{"CCD_MAX_FILE_SIZE", "CCD_WORKERS", "CCD_SKIP_DIRS", "CCD_INCLUDE_DIRS", "CCD_SCIP_INDEX", "CCD_SCIP_EXPORT"}

// clearEnv unsets every variable Load reads (an empty value counts as
// unset), restoring them after the test.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, v := range envVars {
		t.Setenv(v, "")
	}
}

func TestDefault(t *testing.T) {
	c := Default()
	if c.MaxFileSize != 1<<20 {
		t.Errorf("MaxFileSize = %d; want 1 MiB", c.MaxFileSize)
	}
	if c.Workers < 1 || c.Workers != max(runtime.NumCPU(), 1) {
		t.Errorf("Workers = %d; want NumCPU (%d)", c.Workers, runtime.NumCPU())
	}
	if !reflect.DeepEqual(c.SkipDirs, DefaultSkipDirs) {
		t.Errorf("SkipDirs = %v; want DefaultSkipDirs", c.SkipDirs)
	}
	if c.IncludeDirs != nil {
		t.Errorf("IncludeDirs = %v; want none", c.IncludeDirs)
	}
	// The returned slice is a copy.
	c.SkipDirs[0] = "changed"
	c.SkipDirs = append(c.SkipDirs, "more")
	if DefaultSkipDirs[0] == "changed" || Default().SkipDirs[0] == "changed" {
		t.Error("Default shares its SkipDirs with DefaultSkipDirs")
	}
}

func TestLoadNoEnv(t *testing.T) {
	clearEnv(t)
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("Load() = %+v; want Default() %+v", c, Default())
	}
}

func TestLoadEnv(t *testing.T) {
	n := len(DefaultSkipDirs)
	cases := []struct {
		name  string
		env   map[string]string
		check func(t *testing.T, c Config)
	}{
		{"max file size", map[string]string{"CCD_MAX_FILE_SIZE": "2048"}, func(t *testing.T, c Config) {
			if c.MaxFileSize != 2048 {
				t.Errorf("MaxFileSize = %d", c.MaxFileSize)
			}
		}},
		{"max file size huge", map[string]string{"CCD_MAX_FILE_SIZE": "9223372036854775807"}, func(t *testing.T, c Config) {
			if c.MaxFileSize != 1<<63-1 {
				t.Errorf("MaxFileSize = %d", c.MaxFileSize)
			}
		}},
		{"max file size one", map[string]string{"CCD_MAX_FILE_SIZE": "1"}, func(t *testing.T, c Config) {
			if c.MaxFileSize != 1 {
				t.Errorf("MaxFileSize = %d", c.MaxFileSize)
			}
		}},
		{"workers", map[string]string{"CCD_WORKERS": "3"}, func(t *testing.T, c Config) {
			if c.Workers != 3 {
				t.Errorf("Workers = %d", c.Workers)
			}
		}},
		{"skip dirs replace", map[string]string{"CCD_SKIP_DIRS": "gen, out ,,tmp,"}, func(t *testing.T, c Config) {
			if !reflect.DeepEqual(c.SkipDirs, []string{"gen", "out", "tmp"}) {
				t.Errorf("SkipDirs = %q", c.SkipDirs)
			}
		}},
		{"skip dirs single", map[string]string{"CCD_SKIP_DIRS": "only"}, func(t *testing.T, c Config) {
			if !reflect.DeepEqual(c.SkipDirs, []string{"only"}) {
				t.Errorf("SkipDirs = %q", c.SkipDirs)
			}
		}},
		{"skip dirs append", map[string]string{"CCD_SKIP_DIRS": "+gen, tmp"}, func(t *testing.T, c Config) {
			want := append(append([]string(nil), DefaultSkipDirs...), "gen", "tmp")
			if !reflect.DeepEqual(c.SkipDirs, want) {
				t.Errorf("SkipDirs = %q; want defaults + gen, tmp", c.SkipDirs)
			}
		}},
		{"skip dirs append nothing", map[string]string{"CCD_SKIP_DIRS": "+"}, func(t *testing.T, c Config) {
			if !reflect.DeepEqual(c.SkipDirs, DefaultSkipDirs) {
				t.Errorf("SkipDirs = %q; want the defaults", c.SkipDirs)
			}
		}},
		{"include dirs", map[string]string{"CCD_INCLUDE_DIRS": "include, third_party/inc ,"}, func(t *testing.T, c Config) {
			if !reflect.DeepEqual(c.IncludeDirs, []string{"include", "third_party/inc"}) {
				t.Errorf("IncludeDirs = %q", c.IncludeDirs)
			}
		}},
		{"scip index off", map[string]string{"CCD_SCIP_INDEX": "off"}, func(t *testing.T, c Config) {
			if c.SCIPIndex != "" {
				t.Errorf("SCIPIndex = %q", c.SCIPIndex)
			}
		}},
		{"scip index and export", map[string]string{"CCD_SCIP_INDEX": "build/index.scip", "CCD_SCIP_EXPORT": "ccd.scip"}, func(t *testing.T, c Config) {
			if c.SCIPIndex != "build/index.scip" || c.SCIPExport != "ccd.scip" {
				t.Errorf("SCIPIndex = %q, SCIPExport = %q", c.SCIPIndex, c.SCIPExport)
			}
		}},
		{"all together", map[string]string{
			"CCD_MAX_FILE_SIZE": "100", "CCD_WORKERS": "1", "CCD_SKIP_DIRS": "x", "CCD_INCLUDE_DIRS": "inc",
		}, func(t *testing.T, c Config) {
			want := Config{MaxFileSize: 100, Workers: 1, SkipDirs: []string{"x"}, IncludeDirs: []string{"inc"}, SCIPIndex: DefaultSCIPIndex}
			if !reflect.DeepEqual(c, want) {
				t.Errorf("Load() = %+v; want %+v", c, want)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			cfg, err := Load()
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			c.check(t, cfg)
		})
	}
	if len(DefaultSkipDirs) != n {
		t.Errorf("Load changed DefaultSkipDirs: %d entries, was %d", len(DefaultSkipDirs), n)
	}
}

func TestLoadInvalid(t *testing.T) {
	cases := []struct{ name, value string }{
		{"CCD_MAX_FILE_SIZE", "abc"},
		{"CCD_MAX_FILE_SIZE", "0"},
		{"CCD_MAX_FILE_SIZE", "-1"},
		{"CCD_MAX_FILE_SIZE", "1.5"},
		{"CCD_MAX_FILE_SIZE", "1MB"},
		{"CCD_MAX_FILE_SIZE", " 100"},
		{"CCD_MAX_FILE_SIZE", "99999999999999999999"},
		{"CCD_WORKERS", "many"},
		{"CCD_WORKERS", "0"},
		{"CCD_WORKERS", "-4"},
		{"CCD_WORKERS", "2.0"},
		{"CCD_WORKERS", "0x10"},
		{"CCD_SCIP_EXPORT", "index.scip"},
		{"CCD_SCIP_EXPORT", "./index.scip"},
	}
	for _, c := range cases {
		t.Run(c.name+"="+c.value, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(c.name, c.value)
			_, err := Load()
			if err == nil {
				t.Fatalf("Load with %s=%q succeeded; want an error", c.name, c.value)
			}
			if !strings.Contains(err.Error(), c.name) {
				t.Errorf("error %q does not name %s", err, c.name)
			}
			if !strings.Contains(err.Error(), c.value) {
				t.Errorf("error %q does not quote the value %q", err, c.value)
			}
		})
	}
}

func TestLanguageFor(t *testing.T) {
	cases := []struct{ path, want string }{
		{"a.py", "python"},
		{"dir/sub/a.PY", "python"},
		{"x.pyi", "python"},
		{"main.go", "go"},
		{"a.tsx", "tsx"},
		{"a.d.ts", "typescript"},
		{"a.mjs", "javascript"},
		{"lib.rs", "rust"},
		{"x.h", "c"},
		{"x.hpp", "cpp"},
		{"x.c++", "cpp"},
		{"Rakefile", "ruby"},
		{"sub/Gemfile", "ruby"},
		{".bashrc", "bash"},
		{"build.gradle", "groovy"},
		{"main.tf", "hcl"},
		{"README.md", ""},
		{"Makefile", ""},
		{"noext", ""},
		{"rakefile", ""}, // file names match exactly
		{"go", ""},
		{".go", "go"},
	}
	for _, c := range cases {
		got := ""
		if l := LanguageFor(c.path); l != nil {
			got = l.Name
		}
		if got != c.want {
			t.Errorf("LanguageFor(%q) = %q; want %q", c.path, got, c.want)
		}
	}
}

func TestLanguageTable(t *testing.T) {
	seenExt := map[string]string{}
	for _, l := range Languages {
		if LanguageByName(l.Name) == nil || LanguageByName(l.Name).Name != l.Name {
			t.Errorf("LanguageByName(%q) does not return it", l.Name)
		}
		if l.Grammar == "" {
			t.Errorf("%s has no grammar", l.Name)
		}
		for _, e := range l.Extensions {
			if !strings.HasPrefix(e, ".") || strings.ToLower(e) != e {
				t.Errorf("%s: extension %q must start with a dot and be lower case", l.Name, e)
			}
			if other, ok := seenExt[e]; ok {
				t.Errorf("extension %s claimed by %s and %s", e, other, l.Name)
			}
			seenExt[e] = l.Name
		}
	}
	if LanguageByName("cobol") != nil {
		t.Error("LanguageByName of an unknown language is not nil")
	}
}
