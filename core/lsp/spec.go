package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/config"
)

// ServerSpec describes one language server: how to start it and which
// files it serves. Any server is data; DefaultServers lists the built-in
// ones.
type ServerSpec struct {
	// Language is the session key: one session per (Language, root). It is
	// usually a ccd language name ("go", "python", "typescript"); a server
	// may serve several languages' files through Extensions.
	Language string
	// Name is a display name ("gopls"); empty means the command's base name.
	Name string
	// Command is the command line. A first word that is not an absolute
	// path is looked up in CCD_LSP_PATH, then PATH.
	Command []string
	// InitOptions is sent as initializationOptions (nil: none).
	InitOptions json.RawMessage
	// Settings answers workspace/configuration: section name → value. A
	// section not listed gets null (the server's defaults).
	Settings map[string]json.RawMessage
	// Extensions are the file extensions served, with the dot, lower case.
	Extensions []string
	// LanguageIDs maps an extension to the LSP languageId sent in didOpen;
	// extensions not listed use a built-in table, then Language.
	LanguageIDs map[string]string
	// VersionArgs print the server's version (e.g. ["--version"]). Empty:
	// the version is read from the package.json of an npm-installed
	// server, if any.
	VersionArgs []string
	// VersionMatch, when set, is a regular expression the version output
	// must match for this candidate to be chosen (`tsc` serves LSP only
	// from TypeScript 7 on).
	VersionMatch string
	// Env adds NAME=value pairs to the server's environment.
	Env []string
	// NoOpen says the server answers about files it reads from disk, so
	// no didOpen is sent before a request. (gopls can, but an unopened
	// file's package is type-checked anew for each request: 10x slower
	// on net/http, for a quarter of the memory.)
	NoOpen bool
}

// DisplayName is Name, or the base name of the command.
func (s ServerSpec) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	if len(s.Command) > 0 {
		return filepath.Base(s.Command[0])
	}
	return s.Language
}

// Serves reports whether the spec serves files with the given path's
// extension.
func (s ServerSpec) Serves(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range s.Extensions {
		if e == ext {
			return true
		}
	}
	return false
}

// Validate reports what is wrong with a spec, or nil.
func (s ServerSpec) Validate() error {
	if s.Language == "" {
		return fmt.Errorf("language server spec %v: Language is empty", s.Command)
	}
	if len(s.Command) == 0 || s.Command[0] == "" {
		return fmt.Errorf("language server for %s: Command is empty (give the server's command line)", s.Language)
	}
	if len(s.Extensions) == 0 {
		return fmt.Errorf("language server for %s: no Extensions (which files does it serve?)", s.Language)
	}
	if len(s.InitOptions) > 0 && !json.Valid(s.InitOptions) {
		return fmt.Errorf("language server for %s: InitOptions is not valid JSON", s.Language)
	}
	return nil
}

// languageID returns the LSP languageId for a file.
func (s ServerSpec) languageID(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	if id, ok := s.LanguageIDs[ext]; ok {
		return id
	}
	if id, ok := knownLanguageIDs[ext]; ok {
		return id
	}
	return s.Language
}

// knownLanguageIDs are the LSP language identifiers of common extensions.
var knownLanguageIDs = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python", ".pyw": "python",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
	".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".tpp": "cpp",
	".rs": "rust", ".java": "java", ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby",
	".sh": "shellscript", ".bash": "shellscript", ".zsh": "shellscript", ".ksh": "shellscript",
}

// extensionsOf collects the extensions of ccd languages from the config
// table, so that file routing and parsing agree.
func extensionsOf(langs ...string) []string {
	var out []string
	for _, name := range langs {
		if l := config.LanguageByName(name); l != nil {
			out = append(out, l.Extensions...)
		}
	}
	return out
}

// DefaultServers returns the built-in server candidates in priority order.
// Several candidates may share a Language; the first one found on this
// machine serves it.
func DefaultServers() []ServerSpec {
	ts := extensionsOf("typescript", "tsx", "javascript")
	return []ServerSpec{
		{Language: "go", Name: "gopls", Command: []string{"gopls"}, Extensions: extensionsOf("go"),
			VersionArgs: []string{"version"}},
		{Language: "python", Name: "pyright", Command: []string{"pyright-langserver", "--stdio"},
			Extensions: extensionsOf("python")},
		// TypeScript 7's native compiler speaks LSP itself.
		{Language: "typescript", Name: "tsc", Command: []string{"tsc", "--lsp", "--stdio"}, Extensions: ts,
			VersionArgs: []string{"--version"}, VersionMatch: `Version ([7-9]|[1-9][0-9]+)\.`},
		{Language: "typescript", Name: "typescript-language-server", Command: []string{"typescript-language-server", "--stdio"},
			Extensions: ts, VersionArgs: []string{"--version"}},
		{Language: "c", Name: "clangd", Command: []string{"clangd", "--background-index=false"},
			Extensions: extensionsOf("c", "cpp"), VersionArgs: []string{"--version"}},
		{Language: "bash", Name: "bash-language-server", Command: []string{"bash-language-server", "start"},
			Extensions: extensionsOf("bash")},
		{Language: "rust", Name: "rust-analyzer", Command: []string{"rust-analyzer"},
			Extensions: extensionsOf("rust"), VersionArgs: []string{"--version"}},
		{Language: "java", Name: "jdtls", Command: []string{"jdtls"}, Extensions: extensionsOf("java")},
		{Language: "ruby", Name: "solargraph", Command: []string{"solargraph", "stdio"},
			Extensions: extensionsOf("ruby"), VersionArgs: []string{"--version"}},
	}
}
