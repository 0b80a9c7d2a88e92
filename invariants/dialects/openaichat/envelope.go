package openaichat

import (
	"bytes"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// envelope is the completion's id and model as the latest chunk that
// carried them set them. The reference says "Each chunk has the same ID"
// and "the same timestamp", but the clients read neither past the first
// chunk: openai-python's ChatCompletionStreamState and openai-node's
// ChatCompletionStream take id, model and created from chunk 1 and update
// only usage and system_fingerprint, the AI SDK reads its response
// metadata from the first chunk. So created is only type-checked (Groq,
// xAI and Perplexity stamp it with each chunk's second), and a switch of
// id or model (Groq's compound models stream their inner completions
// under their own ids) is envelope-drift at info, once per switch.
// Azure's filter chunks send "" and 0: those say nothing and never switch.
type envelope struct {
	fields [2]envField
}

type envField struct {
	name string
	val  []byte // JSON literal; empty until set
}

var envNames = [2]string{"id", "model"}

const (
	envID = iota
	envModel
)

func newEnvelope() envelope {
	var e envelope
	for i := range e.fields {
		e.fields[i] = envField{name: envNames[i], val: make([]byte, 0, 64)}
	}
	return e
}

// checkEnvelope raises payload-malformed for a field of the wrong type and
// envelope-drift (info, one alarm naming every switched field) when id or
// model switches from the value the previous chunks carried; quiet says
// the flavor expects switches (Groq). It reports whether the id switched:
// a new completion begins in the stream.
func (p *mapper) checkEnvelope(f *decode.Frame, m *invariants.Mapping, created decode.Raw, quiet bool) bool {
	if c := created; c != nil && !empty(c) {
		if _, ok := invariants.Int(c); !ok {
			m.Malformed("chat.completion.chunk", "created is "+invariants.KindName(c)+", want an integer")
		}
	}
	var old [2]string
	switched := [2]bool{}
	any := false
	for i := range p.env.fields {
		ef := &p.env.fields[i]
		v := f.Get(ef.name)
		if v == nil || empty(v) {
			continue
		}
		if v.Kind() != decode.KindString {
			m.Malformed("chat.completion.chunk", ef.name+" is "+invariants.KindName(v)+", want a string")
			continue
		}
		switch {
		case len(ef.val) == 0:
			ef.val = append(ef.val, v...)
		case !bytes.Equal(v, ef.val):
			if !quiet {
				old[i] = clipRaw(ef.val)
			}
			switched[i], any = true, true
			ef.val = append(ef.val[:0], v...)
		}
	}
	if any && !quiet {
		var parts []string
		for i := range switched {
			if switched[i] {
				parts = append(parts, envNames[i]+" from "+old[i]+" to "+clipRaw(p.env.fields[i].val))
			}
		}
		m.Raise("envelope-drift", invariants.SevInfo, "the chunk switches %s: the stream carries more than one completion (the clients keep the first chunk's)", strings.Join(parts, " and "))
	}
	return switched[envID]
}

// empty: the "" and 0 of Azure's filter chunks (null is a wrong type).
func empty(v decode.Raw) bool {
	return string(v) == `""` || string(v) == "0"
}
