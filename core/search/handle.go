package search

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Node types of handles, named as Canopy's tools named them, plus "file"
// for the whole file handle of (file "path").
const (
	TypeFunction  = "function"
	TypeMethod    = "method"
	TypeClass     = "class"
	TypeStruct    = "struct"
	TypeSection   = "section"
	TypeCodeBlock = "code_block"
	TypeParagraph = "paragraph"
	TypeChunk     = "chunk"
	TypeFile      = "file"
)

// nodeType is the compact form of a node type stored per handle.
type nodeType uint8

const (
	ntFunction nodeType = iota
	ntMethod
	ntClass
	ntStruct
	ntSection
	ntCodeBlock
	ntParagraph
	ntChunk
	ntFile
)

var typeNames = [...]string{TypeFunction, TypeMethod, TypeClass, TypeStruct, TypeSection, TypeCodeBlock, TypeParagraph, TypeChunk, TypeFile}

// String is the node type's name in handles ("function", "section", ...).
func (t nodeType) String() string { return typeNames[t] }

// isDef reports whether t is a code definition.
func (t nodeType) isDef() bool { return t <= ntStruct }

// idGroup is the part of a node type that goes into its id: all code
// definitions share one group, so a class detected as a struct (or a
// function that becomes a method) keeps its id as long as its qualified
// name stays.
func (t nodeType) idGroup() string {
	if t.isDef() {
		return "code"
	}
	return t.String()
}

// Span is a byte range of a file: [Start, End).
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Handle is a cheap reference to a piece of a file: what queries return
// and expand takes. Its JSON has the fields of Canopy's handles plus
// symbol.
type Handle struct {
	ID         string `json:"id"`
	FilePath   string `json:"file_path"`
	NodeType   string `json:"node_type"`
	Span       Span   `json:"span"`
	LineRange  [2]int `json:"line_range"`
	TokenCount int    `json:"token_count"`
	Preview    string `json:"preview"`
	// Symbol is the qualified name of a definition ("Server.Serve"), the
	// heading path of a Markdown section ("Install > Linux"); empty for
	// chunks and paragraphs.
	Symbol  string `json:"symbol,omitempty"`
	Content string `json:"content,omitempty"`
}

// HandleID derives a handle id: "h" and 24 hex digits of the SHA-256 of the
// file path, the node type's id group ("code" for every definition), the
// qualified key (a definition's qualified name, a section's heading path,
// a chunk's anchor) and the ordinal among handles of the same file, group
// and key. No offsets or line numbers go in, so edits above a handle never
// change its id; renaming it does.
func HandleID(path string, t string, key string, ordinal int) string {
	g := t
	switch t {
	case TypeFunction, TypeMethod, TypeClass, TypeStruct:
		g = "code"
	}
	return handleID(path, g, key, ordinal)
}

func handleID(path, group, key string, ordinal int) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(group))
	h.Write([]byte{0})
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(ordinal)))
	var sum [sha256.Size]byte
	return "h" + hex.EncodeToString(h.Sum(sum[:0])[:12])
}

// ValidID reports whether s has the shape of a handle id.
func ValidID(s string) bool {
	if len(s) != 25 || s[0] != 'h' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
