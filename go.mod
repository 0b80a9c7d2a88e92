module framescope

go 1.25.0

require (
	github.com/spf13/cobra v1.10.2
	github.com/tmaxmax/go-sse v0.11.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
