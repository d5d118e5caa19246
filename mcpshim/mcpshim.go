// Package mcpshim is the MCP stdio shim: it connects to the daemon
// (starting it when needed), upgrades the connection with GET /v1/mcp and
// then pipes JSON-RPC bytes between stdin/stdout and the daemon. Stdout
// carries only the protocol; errors go to stderr and to mcp.log.
package mcpshim

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// Main runs the shim and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer) int {
	if err := run(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "ccd-mcp: %v\n", err)
		logf("%v", err)
		return 1
	}
	return 0
}

func run(stdin io.Reader, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	sock, err := wire.Ensure(ctx, true)
	cancel()
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return fmt.Errorf("dial %s: %w", sock, err)
	}
	defer conn.Close()
	workspace := os.Getenv("CLAUDE_PROJECT_DIR")
	if workspace == "" {
		workspace, _ = os.Getwd()
	}
	req, err := http.NewRequest(http.MethodGet, "http://ccd/v1/mcp", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "mcp")
	req.Header.Set(wire.VersionHeader, wire.Version)
	req.Header.Set("X-Ccd-Workspace", workspace)
	if err := req.Write(conn); err != nil {
		return fmt.Errorf("upgrade request: %w", err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return fmt.Errorf("upgrade response: %w", err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return fmt.Errorf("daemon refused the MCP upgrade: %s %s", resp.Status, body)
	}
	// Pipe both ways; the session ends when either side closes.
	done := make(chan error, 2)
	go func() {
		_, err := io.Copy(conn, stdin)
		if uc, ok := conn.(*net.UnixConn); ok {
			uc.CloseWrite()
		}
		done <- err
	}()
	go func() {
		_, err := io.Copy(stdout, br)
		done <- err
	}()
	return <-done
}

func logf(format string, args ...any) { wire.AppendLog("mcp.log", "ccd-mcp", format, args...) }
