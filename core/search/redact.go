package search

import (
	"regexp"
	"strings"
)

// Previews are shown to agents and people without anyone asking for the
// file: a preview never carries what looks like a secret (a private key,
// a cloud or API token, a password or key assigned in code); the value is
// replaced by [redacted]. Expanding a handle still returns the file as it
// is: that is an explicit read, and .ccdignore keeps files out entirely.

var secretPatterns = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----.*`), "[private key redacted]"},
	{regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), "[redacted]"},
	{regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}`), "[redacted]"},
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), "[redacted]"},
	{regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`), "[redacted]"},
	{regexp.MustCompile(`(?i)((?:api[_-]?key|secret|token|passw(?:or)?d|credential|private[_-]?key)s?["']?\s*[:=]\s*)(["'])[^"'\s]{6,}(["']?)`), "${1}${2}[redacted]${3}"},
}

// redactSecrets replaces what looks like a secret in s. Most text has
// none of the patterns' anchors: it is returned without running them.
func redactSecrets(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.with)
	}
	return s
}

// mayHoldSecret is a quick test for the anchors of secretPatterns.
func mayHoldSecret(s string) bool {
	for _, a := range [...]string{"PRIVATE KEY", "AKIA", "gh", "xox", "sk-"} {
		if strings.Contains(s, a) {
			return true
		}
	}
	if !strings.ContainsAny(s, "=:") {
		return false
	}
	for _, k := range [...]string{"key", "secret", "token", "passw", "credential"} {
		if containsFold(s, k) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII word k in
// any case, without allocating.
func containsFold(s, k string) bool {
	for i := 0; i+len(k) <= len(s); i++ {
		j := 0
		for ; j < len(k); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != k[j] {
				break
			}
		}
		if j == len(k) {
			return true
		}
	}
	return false
}
