module github.com/markusmobius/go-trafilatura

go 1.22.0

toolchain go1.22.5

require (
	github.com/RadhiFadlillah/whatlanggo v0.0.0-20240916001553-aac1f0f737fc
	github.com/andybalholm/cascadia v1.3.2
	github.com/forPelevin/gomoji v1.2.0
	github.com/go-shiori/dom v0.0.0-20230515143342-73569d674e1c
	github.com/go-shiori/go-readability v0.0.0-20241012063810-92284fa8a71f
	github.com/markusmobius/go-domdistiller v0.0.0-20240926050704-25b8d046ffb4
	github.com/rs/zerolog v1.33.0
	github.com/yosssi/gohtml v0.0.0-20201013000340-ee4748c638f4
	golang.org/x/net v0.30.0
	golang.org/x/text v0.19.0
)

require (
	github.com/araddon/dateparse v0.0.0-20210429162001-6b43995a97de // indirect
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/sergi/go-diff v1.3.2-0.20230802210424-5b0b94c5c0d3 // indirect
	github.com/stretchr/testify v1.9.0 // indirect
	golang.org/x/sys v0.26.0 // indirect
)
