package openaichat

import (
	"bytes"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// envelope is the completion's id, model and created as the first chunk
// that carried them set them ("Each chunk has the same ID", "Each chunk
// has the same timestamp"). Azure's filter chunks send "" and 0: those
// say nothing and are never drift.
type envelope struct {
	fields [3]envField
}

type envField struct {
	name string
	val  []byte // JSON literal; nil until set
}

var envNames = [3]string{"id", "model", "created"}

func newEnvelope() envelope {
	var e envelope
	for i := range e.fields {
		e.fields[i] = envField{name: envNames[i], val: make([]byte, 0, 64)}
	}
	return e
}

// checkEnvelope raises payload-malformed for a field of the wrong type and
// envelope-drift (once per chunk, naming every field that changed) for one
// that differs from the stream's.
func (p *mapper) checkEnvelope(f *decode.Frame, m *invariants.Mapping) {
	var drift [3]decode.Raw
	drifted := false
	for i := range p.env.fields {
		ef := &p.env.fields[i]
		v := f.Get(ef.name)
		if v == nil || empty(v) {
			continue
		}
		if !wellTyped(i, v) {
			want := "a string"
			if ef.name == "created" {
				want = "an integer"
			}
			m.Malformed("chat.completion.chunk", ef.name+" is "+invariants.KindName(v)+", want "+want)
			continue
		}
		switch {
		case len(ef.val) == 0:
			ef.val = append(ef.val, v...)
		case !bytes.Equal(v, ef.val):
			drift[i], drifted = v, true
		}
	}
	if !drifted {
		return
	}
	var parts []string
	for i, v := range drift {
		if v != nil {
			parts = append(parts, envNames[i]+" "+clipRaw(v)+" (the stream's is "+clipRaw(p.env.fields[i].val)+")")
		}
	}
	m.Raise("envelope-drift", invariants.SevError, "the chunk changes %s; every chunk of a completion carries the same", strings.Join(parts, " and "))
}

// empty: the "" and 0 of Azure's filter chunks (null is a wrong type).
func empty(v decode.Raw) bool {
	return string(v) == `""` || string(v) == "0"
}

func wellTyped(i int, v decode.Raw) bool {
	if envNames[i] == "created" {
		_, ok := invariants.Int(v)
		return ok
	}
	return v.Kind() == decode.KindString
}
