module github.com/webgate/webgate

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/maypok86/otter/v2 v2.4.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/term v0.47.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
