module jsonbench

go 1.26

require (
	framescope v0.0.0
	github.com/goccy/go-json v0.12.0
	github.com/tidwall/gjson v1.20.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)

replace framescope => ../..
