package mcp

import (
	"context"
	"fmt"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCall measures one canvas call through a real client over a
// pipe (JSON-RPC, the handler, the board; pictures are the test host's
// tiny PNGs, so rendering is not included).
func BenchmarkCall(b *testing.B) {
	root := unpack(b, "python")
	for _, tc := range []struct {
		name string
		args func(i int) map[string]any
	}{
		{"status", func(int) map[string]any { return map[string]any{"action": "status"} }},
		{"claim", func(i int) map[string]any {
			return map[string]any{"action": "claim", "text": fmt.Sprintf("claim %d", i)}
		}},
		{"impact", func(int) map[string]any { return map[string]any{"action": "impact", "symbol": "Cart"} }},
		{"mark", func(int) map[string]any { return map[string]any{"action": "mark", "symbol": "total"} }},
		{"read", func(int) map[string]any { return map[string]any{"action": "read"} }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := connect(b, newTestHost(), root)
			s.call(map[string]any{"action": "init"})
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolName, Arguments: tc.args(i)})
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, res)
				}
			}
		})
	}
}
