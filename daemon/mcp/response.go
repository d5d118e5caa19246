package mcp

import (
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ccd-dev/ccd/core/board"
)

// MaxResultChars bounds the action-result part of a response. With the
// summary and hint a text answer stays near 4k tokens, far below Claude
// Code's cap on MCP results (about 25k tokens).
const MaxResultChars = 16000

// toolError is an action that failed, with what to do about it.
type toolError struct {
	msg  string // may span lines (suggestions)
	hint string
}

func (e *toolError) Error() string { return e.msg }

// text renders the error as the agent sees it.
func (e *toolError) text() string {
	if e.hint == "" {
		return e.msg
	}
	return e.msg + "\nHint: " + capitalise(e.hint)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fromBoardError turns a refused board action into a toolError.
func fromBoardError(err error) *toolError {
	if be, ok := err.(*board.Error); ok {
		return &toolError{msg: capitalise(be.Message) + ".", hint: be.Hint}
	}
	return &toolError{msg: capitalise(err.Error()) + "."}
}

// picture is an image to attach.
type picture struct {
	kind string
	png  []byte
}

// response is a successful action: the result text, the board's view and
// the pictures.
type response struct {
	result strings.Builder
	view   board.View
	images []picture
	notes  []string // pictures that failed, and similar
}

func (r *response) printf(format string, a ...any) { fmt.Fprintf(&r.result, format, a...) }

// text lays the response out: result, blank line, summary line, next hint.
func (r *response) text() string {
	res := strings.TrimRight(r.result.String(), "\n")
	if n := len(res); n > MaxResultChars {
		cut := strings.LastIndexByte(res[:MaxResultChars], '\n')
		if cut < MaxResultChars/2 {
			cut = MaxResultChars
		}
		res = res[:cut] + fmt.Sprintf("\n… (cut: %d more characters; ask for less, e.g. a smaller depth, or use read for the board)", n-cut)
	}
	var b strings.Builder
	b.WriteString(res)
	for _, n := range r.notes {
		b.WriteString("\n" + n)
	}
	b.WriteString("\n\n" + r.view.Summary)
	if r.view.Next != "" {
		b.WriteString("\n" + r.view.Next)
	}
	return b.String()
}

// toResult converts a response or an error into the tool result.
func toResult(r *response, terr *toolError) *sdk.CallToolResult {
	if terr != nil {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: terr.text()}}}
	}
	out := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: r.text()}}}
	for _, im := range r.images {
		out.Content = append(out.Content, &sdk.ImageContent{Data: im.png, MIMEType: "image/png"})
	}
	return out
}
