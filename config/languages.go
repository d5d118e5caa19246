package config

import (
	"path"
	"strings"
)

// Language describes how ccd handles one language: which files belong to it,
// which tree-sitter grammar parses them, which schema extracts facts, and
// which language server (if any) refines the graph.
type Language struct {
	Name       string   // stable key: "python", "go", ...
	Extensions []string // with the dot, lower case
	Filenames  []string // exact base names (e.g. "Dockerfile")
	Grammar    string   // grammar key known to core/parse
	// Schema names schemas/<Schema>.scm. Empty means tier 2: generic
	// definitions only, no imports or calls.
	Schema string
	// Server is the default language-server command line, empty for none.
	Server []string
}

// Languages is the built-in language table. Tier 1 languages (full schema)
// come first; the rest get generic definitions.
var Languages = []Language{
	{Name: "python", Extensions: []string{".py", ".pyi", ".pyw"}, Grammar: "python", Schema: "python",
		Server: []string{"pyright-langserver", "--stdio"}},
	{Name: "javascript", Extensions: []string{".js", ".mjs", ".cjs", ".jsx"}, Grammar: "javascript", Schema: "javascript",
		Server: []string{"typescript-language-server", "--stdio"}},
	{Name: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, Grammar: "typescript", Schema: "typescript",
		Server: []string{"typescript-language-server", "--stdio"}},
	{Name: "tsx", Extensions: []string{".tsx"}, Grammar: "tsx", Schema: "tsx",
		Server: []string{"typescript-language-server", "--stdio"}},
	{Name: "go", Extensions: []string{".go"}, Grammar: "go", Schema: "go",
		Server: []string{"gopls"}},
	{Name: "rust", Extensions: []string{".rs"}, Grammar: "rust", Schema: "rust",
		Server: []string{"rust-analyzer"}},
	{Name: "java", Extensions: []string{".java"}, Grammar: "java", Schema: "java",
		Server: []string{"jdtls"}},
	{Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec"}, Filenames: []string{"Rakefile", "Gemfile"}, Grammar: "ruby", Schema: "ruby",
		Server: []string{"solargraph", "stdio"}},
	{Name: "c", Extensions: []string{".c", ".h"}, Grammar: "c", Schema: "c",
		Server: []string{"clangd"}},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"}, Grammar: "cpp", Schema: "cpp",
		Server: []string{"clangd"}},
	{Name: "bash", Extensions: []string{".sh", ".bash", ".zsh", ".ksh"}, Filenames: []string{".bashrc", ".bash_profile", ".profile"}, Grammar: "bash", Schema: "bash",
		Server: []string{"bash-language-server", "start"}},

	{Name: "csharp", Extensions: []string{".cs"}, Grammar: "csharp"},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}, Grammar: "kotlin"},
	{Name: "scala", Extensions: []string{".scala", ".sc"}, Grammar: "scala"},
	{Name: "swift", Extensions: []string{".swift"}, Grammar: "swift"},
	{Name: "php", Extensions: []string{".php"}, Grammar: "php"},
	{Name: "lua", Extensions: []string{".lua"}, Grammar: "lua"},
	{Name: "elixir", Extensions: []string{".ex", ".exs"}, Grammar: "elixir"},
	{Name: "ocaml", Extensions: []string{".ml", ".mli"}, Grammar: "ocaml"},
	{Name: "groovy", Extensions: []string{".groovy", ".gradle"}, Grammar: "groovy"},
	{Name: "elm", Extensions: []string{".elm"}, Grammar: "elm"},
	{Name: "protobuf", Extensions: []string{".proto"}, Grammar: "protobuf"},
	{Name: "hcl", Extensions: []string{".hcl", ".tf"}, Grammar: "hcl"},
	{Name: "cue", Extensions: []string{".cue"}, Grammar: "cue"},
	{Name: "sql", Extensions: []string{".sql"}, Grammar: "sql"},
	{Name: "svelte", Extensions: []string{".svelte"}, Grammar: "svelte"},
}

var (
	byExt  = map[string]*Language{}
	byName = map[string]*Language{}
	byFile = map[string]*Language{}
)

func init() {
	for i := range Languages {
		l := &Languages[i]
		byName[l.Name] = l
		for _, e := range l.Extensions {
			byExt[e] = l
		}
		for _, f := range l.Filenames {
			byFile[f] = l
		}
	}
}

// LanguageFor returns the language of a file by its name, or nil when ccd
// does not parse such files.
func LanguageFor(p string) *Language {
	base := path.Base(p)
	if l := byFile[base]; l != nil {
		return l
	}
	return byExt[strings.ToLower(path.Ext(base))]
}

// LanguageByName returns the language with the given key, or nil.
func LanguageByName(name string) *Language { return byName[name] }
