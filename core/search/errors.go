package search

// Error codes. All but NoReader are the codes Canopy's tools used.
const (
	CodeQueryParse     = "QueryParse"     // invalid s-expression or no search parameter
	CodeGlobPattern    = "GlobPattern"    // invalid glob syntax
	CodeHandleNotFound = "HandleNotFound" // unknown handle id
	CodeStaleIndex     = "StaleIndex"     // the file changed since it was indexed
	CodeNoReader       = "NoReader"       // the index cannot read files (no Root or Read)
)

// Error is a retrieval error with a code the MCP server and the HTTP API
// can map to their envelopes, and a hint that says what to do.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Column is the 1-based column of a query parse error, Offset its byte
	// offset (both 0 otherwise).
	Column int `json:"column,omitempty"`
	Offset int `json:"offset,omitempty"`
}

// Error renders the message and the hint.
func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}
