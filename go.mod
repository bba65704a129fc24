module github.com/webgate/webgate

go 1.26.8

require (
	github.com/maypok86/otter/v2 v2.4.0
	go.yaml.in/yaml/v3 v3.0.6
)
