package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// referenceErr is Response.Err written with encoding/json, bytes and fmt,
// as package wire had it: the lean decoder must give the same answer.
func referenceErr(status int, body []byte) *Error {
	e := &Error{Status: status}
	if json.Unmarshal(body, e) != nil || e.Message == "" {
		e.Code = "http_" + strconv.Itoa(status)
		e.Message = fmt.Sprintf("daemon answered %d: %s", status, bytes.TrimSpace(body))
	}
	return e
}

var envelopes = []string{
	`{"code":"not_found","message":"nope","hint":"try"}`,
	`{"code":"bad_request","message":"line\nbreak \"quoted\" \\ \/ \t tab \u00e9 \ud83d\ude00"}`,
	` { "message" : "spaced" , "extra" : [1, {"a": null}, true, false, -1.5e+3] } `,
	`{"Message":"upper case key","CODE":"x"}`,
	`{"message":"dup","message":"last wins"}`,
	`{"message":"lone \ud800 surrogate","hint":"\udc00\ud800x"}`,
	`{"message":"pair \ud83d\ud83d broken"}`,
	"{\"message\":\"bad utf8 \xff\xfe here\"}",
	`{"message":null,"code":"null message"}`,
	`{"message":"x","code":5}`,
	`{"message":5,"hint":"kept"}`,
	`{"message":"x","hint":{"nested":true}}`,
	`{"message":""}`,
	`{"message":"trailing"} x`,
	`{"message":"unterminated}`,
	`{"message":"ctrl ` + "\x01" + `"}`,
	`{"message":"bad escape \q"}`,
	`{"message":"short \u12"}`,
	`{"a":01}`,
	`{"a":1.}`,
	`{"a":-}`,
	`{"a":1e}`,
	`{"a":tru}`,
	`{"a" 1}`,
	`{"a":1,}`,
	`[{"message":"array"}]`,
	`"just a string"`,
	`null`,
	``,
	`   `,
	"\u00a0 plain text with unicode spaces \u2003\n",
	"<html>502 Bad Gateway</html>",
	"\x85\xa0",
}

func TestErrMatchesEncodingJSON(t *testing.T) {
	for _, body := range envelopes {
		for _, status := range []int{400, 404, 500} {
			checkErr(t, status, []byte(body))
		}
	}
	if err := (&Response{Status: 200, Body: []byte(`{"message":"x"}`)}).Err(); err != nil {
		t.Errorf("2xx is not an error: %v", err)
	}
	var e *Error
	err := (&Response{Status: 404, Body: []byte(envelopes[0])}).Err()
	if !errors.As(err, &e) || e.Error() != "nope\nHint: try" || e.Status != 404 {
		t.Errorf("envelope: %#v", err)
	}
}

func checkErr(t *testing.T, status int, body []byte) {
	t.Helper()
	err := (&Response{Status: status, Body: body}).Err()
	got, ok := err.(*Error)
	want := referenceErr(status, body)
	if !ok || *got != *want {
		if len(body) > 200 {
			body = append(body[:200:200], "…"...)
		}
		t.Errorf("%d %q:\n got  %s\n want %s", status, body, cut(fmt.Sprintf("%#v", err)), cut(fmt.Sprintf("%#v", want)))
	}
}

func cut(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestDeepNesting: encoding/json's depth limit is honoured without
// exhausting the stack.
func TestDeepNesting(t *testing.T) {
	for _, depth := range []int{9998, 9999, 10000, 10001, 100000} {
		body := []byte(`{"message":"deep","x":` + string(bytes.Repeat([]byte("["), depth)) + string(bytes.Repeat([]byte("]"), depth)) + "}")
		checkErr(t, 500, body)
	}
}

func FuzzErr(f *testing.F) {
	for _, s := range envelopes {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkErr(t, 500, body) })
}
