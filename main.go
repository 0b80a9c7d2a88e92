// Command framescope inspects and checks agent chat SSE streams in every
// dialect it knows (PC3, OpenAI Chat and Responses, Anthropic, Gemini,
// AG-UI, MCP, …; `framescope rules --dialect list` names them all) and as
// plain SSE.
//
// The command line is package ui/cli; main only runs it.
package main

import (
	"embed"
	"io"
	"os"

	"framescope/ui/cli"
)

// referenceKit holds the captures `framescope reference --export-tests`
// ships: the reference probes, the examples and the PC3 rule captures
// (with their .want notes, which say what each one is about). It is
// embedded here because the captures are the repository's testdata.
//
//go:embed testdata/reference/probes testdata/examples testdata/rules/*.sse testdata/rules/*.jsonl testdata/rules/*.want
var referenceKit embed.FS

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main over its arguments and streams, returning the exit status.
// (The end-to-end tests, package e2e, run the built binary.)
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := cli.NewRoot(cli.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, ReferenceKit: referenceKit})
	return cli.Execute(root, args)
}
