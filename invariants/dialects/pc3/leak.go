package pc3

import (
	"bytes"
	"net/netip"
	"regexp"
	"strings"
	"sync"

	"framescope/decode"
)

// FR-7: an error frame is telemetry, never a debugging dump. These are the
// shapes of what must not ride on it. Compiled on the first error frame,
// not at every start of framescope.
type leakPattern struct {
	what string
	re   *regexp.Regexp
}

var leakPatterns = sync.OnceValue(func() []leakPattern {
	return []leakPattern{
		{"a Python stack trace", regexp.MustCompile(`Traceback \(most recent call last\)`)},
		{"a Go stack trace", regexp.MustCompile(`goroutine \d+ \[`)},
		{"a Java/JS stack frame", regexp.MustCompile(`(?:^|\n)[ \t]*at [\w$]+(?:\.[\w$<>]+)+ ?\(`)},
		{"a Python stack frame", regexp.MustCompile(`File "[^"\n]*", line \d+`)},
		{"raw exception text", regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b:`)},
		{"a Java exception", regexp.MustCompile(`\bjava\.[\w.]*(?:Exception|Error)\b`)},
		{"a Go panic", regexp.MustCompile(`\bpanic: `)},
		{"an internal hostname", regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|svc)\b`)},
		{"a file path", regexp.MustCompile(`(?:^|[\s"'(=,:\[])/[\w.@+-]+/[\w.@+-]+`)},
		{"a file path", regexp.MustCompile(`\b[A-Za-z]:\\[\w. -]+`)},
		{"a file path", regexp.MustCompile(`\b[\w.-]+(?:/[\w.-]+)+\.(?:py|go|java|js|ts|rb|rs|php|cs|cpp|kt|scala|swift)\b`)},
		{"a source location", regexp.MustCompile(`\b[\w-]+\.(?:py|go|java|js|ts|rb|rs|php|kt):\d+\b`)},
	}
})

var (
	ipv4Candidate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}\b`) })
	ipv6Candidate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b[fF][cdCD][0-9a-f]{2}:[0-9a-f:]*[0-9a-f]`) })
)

// envelopeMeta are the PS6 EnricherResponse metadata keys (§5.7, §5.8).
var envelopeMeta = map[string]bool{
	"status": true, "partial": true, "cache_meta": true, "principal": true, "timing": true, "payload": true,
}

// findErrorLeak returns what the error frame leaks, or "".
func findErrorLeak(f *decode.Frame) string {
	for i := range f.Members {
		m := &f.Members[i]
		key := string(m.Key)
		switch key {
		case "event_type", "version", "timestamp", "response_id":
			continue
		}
		if envelopeMeta[key] {
			return "PS6 envelope metadata (" + key + ")"
		}
		if where := leakIn(m.Value); where != "" {
			return where
		}
	}
	return ""
}

func leakIn(v decode.Raw) string {
	found := ""
	decode.Walk(v, func(t decode.Token) bool {
		switch t.Kind {
		case decode.TokKey:
			if k := t.Text(); envelopeMeta[k] {
				found = "PS6 envelope metadata (" + k + ")"
			}
		case decode.TokString:
			found = leakInText(t.Text())
		}
		return found == ""
	})
	return found
}

func leakInText(s string) string {
	for _, p := range leakPatterns() {
		if m := p.re.FindString(s); m != "" {
			return p.what + " (" + decode.Clip(strings.TrimSpace(m), 60) + ")"
		}
	}
	for _, m := range ipv4Candidate().FindAllString(s, -1) {
		if a, err := netip.ParseAddr(m); err == nil && (a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast()) {
			return "a private IP address (" + m + ")"
		}
	}
	for _, m := range ipv6Candidate().FindAllString(s, -1) {
		if a, err := netip.ParseAddr(m); err == nil && a.IsPrivate() {
			return "a private IP address (" + m + ")"
		}
	}
	return ""
}

// Envelope detection (FR-10, AC-8): the PS6 envelope is recognised by its
// payload key beside any metadata key; cache_meta, principal and partial
// betray it anywhere.
var envelopeKeyBits = map[string]uint16{
	"payload": 1, "enricher_id": 2, "domain_type": 4, "principal": 8,
	"status": 16, "partial": 32, "cache_meta": 64, "timing": 128,
}

func findEnvelope(v decode.Raw) string {
	if v == nil || !mayHoldEnvelope(v) {
		return ""
	}
	found := ""
	var stack [16]uint16 // nesting past 16 levels grows onto the heap
	masks := stack[:0]
	decode.Walk(v, func(t decode.Token) bool {
		switch t.Kind {
		case decode.TokObjectStart:
			masks = append(masks, 0)
		case decode.TokArrayStart:
			masks = append(masks, 0)
		case decode.TokArrayEnd:
			masks = masks[:len(masks)-1]
		case decode.TokKey:
			k := t.Text()
			switch k {
			case "cache_meta", "principal", "partial":
				found = "key " + k
				return false
			}
			masks[len(masks)-1] |= envelopeKeyBits[k]
		case decode.TokObjectEnd:
			m := masks[len(masks)-1]
			masks = masks[:len(masks)-1]
			if m&1 != 0 && m&^1 != 0 {
				found = "an EnricherResponse envelope (payload beside " + metaNames(m&^1) + ")"
				return false
			}
		}
		return true
	})
	return found
}

// mayHoldEnvelope: every finding of findEnvelope needs a payload,
// cache_meta, principal or partial key; without one of those quoted words
// (and without an escape that could spell one) the walk can be skipped.
func mayHoldEnvelope(v decode.Raw) bool {
	if bytes.IndexByte(v, '\\') >= 0 {
		return true
	}
	for _, k := range envelopeTell {
		if bytes.Contains(v, k) {
			return true
		}
	}
	return false
}

var envelopeTell = [][]byte{[]byte(`"payload"`), []byte(`"cache_meta"`), []byte(`"principal"`), []byte(`"partial"`)}

func metaNames(m uint16) string {
	var names []string
	for _, k := range []string{"enricher_id", "domain_type", "principal", "status", "partial", "cache_meta", "timing"} {
		if m&envelopeKeyBits[k] != 0 {
			names = append(names, k)
		}
	}
	return strings.Join(names, ", ")
}
