package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// fileURI turns an absolute file path into a file:// URI.
func fileURI(abs string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}

// uriPath turns a file:// URI into an absolute, cleaned file path.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("bad uri %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("uri %q: not a file uri", uri)
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// relPath returns p relative to root (slash-separated) and whether p lies
// inside root.
func relPath(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
