module github.com/ccd-dev/ccd

go 1.26.0

require github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82

require golang.org/x/tools v0.52.0 // indirect
