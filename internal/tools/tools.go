//go:build tools

// Package tools pins modules that packages under construction depend on, so
// `go mod tidy` keeps them while those packages land. Remove an import here
// once a real package imports the module.
package tools

import (
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/pkoukk/tiktoken-go"
	_ "github.com/pkoukk/tiktoken-go-loader"
	_ "github.com/sourcegraph/jsonrpc2"
	_ "github.com/srwiley/oksvg"
	_ "github.com/srwiley/rasterx"
	_ "github.com/tliron/glsp/protocol_3_16"
	_ "golang.org/x/image/font/opentype"
	_ "gopkg.in/yaml.v3"
)
