package index

import (
	"fmt"

	"github.com/ccd-dev/ccd/config"
)

// A root without a source file (a clone before the clone, an empty
// directory) is never initialised, whoever asks: an explicit init, an
// auto-registration, the CLI in-process. An empty graph would be locked in
// as the project's; a later init, once the code is there, indexes it.
// RequireSource is that rule, the one place it is decided.

// NoSourceError says a root holds no source file to index.
type NoSourceError struct {
	Root string
	// Summary is what the index run found ("" when the root was checked
	// before it was indexed).
	Summary string
}

func (e *NoSourceError) Error() string {
	if e.Summary == "" {
		return "no source files in " + e.Root
	}
	return fmt.Sprintf("no source files in %s (%s)", e.Root, e.Summary)
}

// RequireSource returns a *NoSourceError when the root holds no source
// file, nil when it holds one: by res, the result of indexing it, or,
// with res nil (before an index run), by a bounded walk (HasSource).
func RequireSource(root string, res *Result, cfg config.Config) error {
	switch {
	case res != nil && res.Summary.Parsed > 0:
		return nil
	case res != nil:
		return &NoSourceError{Root: root, Summary: res.Summary.String()}
	case HasSource(root, cfg):
		return nil
	}
	return &NoSourceError{Root: root}
}
