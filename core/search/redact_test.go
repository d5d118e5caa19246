package search

import (
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	for _, c := range []struct{ in, want, gone string }{
		{`API_KEY = "sk-ant-api03-abcdefghijklmnopqrstuvwx"`, `API_KEY = "[redacted]"`, "abcdefgh"},
		{`password: 'hunter2hunter2'`, `password: '[redacted]'`, "hunter2"},
		{`aws_access_key_id = AKIAIOSFODNN7EXAMPLE`, `aws_access_key_id = [redacted]`, "AKIAIOSF"},
		{`token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"`, `token = "[redacted]"`, "0123456789"},
		{`-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmU...`, `[private key redacted]`, "b3Blbn"},
		{`"secret": "abc"`, `"secret": "abc"`, ""},                       // too short to be one
		{`def get_token(self, name):`, `def get_token(self, name):`, ""}, // code, not a value
		{`password = os.environ["DB_PASSWORD"]`, `password = os.environ["DB_PASSWORD"]`, ""},
	} {
		got := redactSecrets(c.in)
		if got != c.want || (c.gone != "" && strings.Contains(got, c.gone)) {
			t.Errorf("redactSecrets(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Through a preview.
	if p := preview([]byte("SLACK = 'xoxb-123456789012-abcdefghijkl'\n")); strings.Contains(p, "xoxb-1234") {
		t.Errorf("preview carries a token: %q", p)
	}
}
