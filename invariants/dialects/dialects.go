// Package dialects is the registry of every agent-stream dialect framescope
// reads. Adding a dialect is one folder under invariants/dialects and one
// line in All.
package dialects

import (
	"sort"
	"strings"
	"sync"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/a2a"
	"framescope/invariants/dialects/agui"
	"framescope/invariants/dialects/aisdkui"
	"framescope/invariants/dialects/anthropic"
	"framescope/invariants/dialects/chunkframed"
	"framescope/invariants/dialects/gemini"
	"framescope/invariants/dialects/gobus"
	"framescope/invariants/dialects/langgraph"
	"framescope/invariants/dialects/mcp"
	"framescope/invariants/dialects/ollama"
	"framescope/invariants/dialects/openaichat"
	"framescope/invariants/dialects/openairealtime"
	"framescope/invariants/dialects/openairesponses"
	"framescope/invariants/dialects/pc3"
	"framescope/invariants/dialects/publicsse"
	"framescope/invariants/dialects/typedlines"
	"framescope/invariants/machine"
)

// All lists the dialects in detection priority order (a tie goes to the
// earlier one); sse, the fallback, is last.
var All = []invariants.Dialect{
	pc3.Dialect,
	typedlines.Dialect,
	gobus.Dialect,
	openaichat.Dialect,
	aisdkui.Dialect,
	openairesponses.Dialect,
	openairealtime.Dialect,
	agui.Dialect,
	chunkframed.Dialect,
	anthropic.Dialect,
	gemini.Dialect,
	ollama.Dialect,
	mcp.Dialect, // before a2a: a lone JSON-RPC error (both dialects' maybe) is far likelier an MCP answer
	a2a.Dialect,
	langgraph.Dialect,
	publicsse.Dialect,
	invariants.SSE,
}

// Default is the dialect a stream is read as before its dialect is known
// (and the one `rules` lists without --dialect): the first of All.
func Default() invariants.Dialect { return All[0] }

// IndexKeys is the key set every stream's decoder indexes: the one Default
// declares. Frames are decoded before their stream's dialect is known, and
// read as Default's until then. Another dialect's lookups scan the members
// (the same answers; its keys, when it declares some, are indexed where its
// own frames are decoded again: the inspector's client machine).
func IndexKeys() *decode.Keys { return invariants.IndexKeysOf(Default()) }

// Native reports whether the named dialect is an invariants.Native one; ""
// (not known yet) is read as Default.
func Native(name string) bool {
	if name == "" {
		return invariants.IsNative(Default())
	}
	d, ok := Lookup(name)
	return ok && invariants.IsNative(d)
}

// Machine is the reference client machine `framescope reference` prints
// and runs: the first dialect's of All that ships one (machine.Of), and
// that dialect.
func Machine() (invariants.Dialect, machine.Machine) {
	for _, d := range All {
		if m := machine.Of(d); m != nil {
			return d, m
		}
	}
	return nil, nil
}

// Lookup returns the dialect of a name (case-insensitive).
func Lookup(name string) (invariants.Dialect, bool) {
	for _, d := range All {
		if strings.EqualFold(d.Name(), name) {
			return d, true
		}
	}
	return nil, false
}

// Names lists every dialect name, sorted.
func Names() []string {
	out := make([]string, 0, len(All))
	for _, d := range All {
		out = append(out, d.Name())
	}
	sort.Strings(out)
	return out
}

// NewDetector returns a detector over every dialect but the sse fallback.
func NewDetector() *invariants.Detector {
	return detectorSet().New()
}

// detectorSet is worked out once: the dialects are fixed at build time.
var detectorSet = sync.OnceValue(func() *invariants.DetectorSet {
	return invariants.NewDetectorSet(All[:len(All)-1])
})
