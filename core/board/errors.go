package board

// Error is a refused board action: what went wrong and what to do.
type Error struct {
	Code    string // one of the Code* constants
	Message string
	Hint    string
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Message
	}
	return e.Message + " (hint: " + e.Hint + ")"
}

// Error codes.
const (
	CodeMissingText   = "missing_text"
	CodeMissingSymbol = "missing_symbol"
	CodeTextTooLong   = "text_too_long"
	CodeBadKind       = "bad_kind"
	CodeUnknownClaim  = "unknown_claim"
	CodeBadStatus     = "bad_status"
	CodeUnknownTask   = "unknown_task"
	CodeNoTasks       = "no_tasks"
	CodeBadTasks      = "bad_tasks"
	CodeBadState      = "bad_state"
)
