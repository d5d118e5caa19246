module github.com/ccd-dev/ccd

go 1.26.0

require github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82

require (
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/gofrs/flock v0.13.1 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
