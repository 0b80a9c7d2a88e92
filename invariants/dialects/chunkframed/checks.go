package chunkframed

import (
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// The seed's protocol table lists each event's fields; only
// expected_chunks is marked optional. A field missing or of the wrong JSON
// type is payload-malformed, one alarm per frame naming every fault. On a
// stream.end with final: false (the agent crashed, or the bus published a
// synthetic end) total_chunks and checksum may be missing: nothing was
// completed to count or hash.

// faults collects a frame's malformed fields without allocating; the
// message is built only when there is one.
type faults struct {
	n    int
	list [6]fault
}

type fault struct {
	field, want string
	got         decode.Raw
}

func (fs *faults) add(field string, got decode.Raw, want string) {
	if fs.n < len(fs.list) {
		fs.list[fs.n] = fault{field: field, want: want, got: got}
		fs.n++
	}
}

// str requires a non-empty string.
func (fs *faults) str(f *decode.Frame, field string) {
	if v := f.Get(field); !v.IsNonEmptyStr() {
		fs.add(field, v, "a non-empty string")
	}
}

// count requires a non-negative integer (optional: absent is fine).
func (fs *faults) count(f *decode.Frame, field string, optional bool) {
	v := f.Get(field)
	if v == nil && optional {
		return
	}
	if n, ok := invariants.Int(v); !ok || n < 0 {
		fs.add(field, v, "a non-negative integer")
	}
}

// boolean requires a JSON boolean.
func (fs *faults) boolean(f *decode.Frame, field string) {
	if v := f.Get(field); v.Kind() != decode.KindBool {
		fs.add(field, v, "a boolean")
	}
}

func (fs *faults) raise(m *invariants.Mapping, event string) {
	if fs.n == 0 {
		return
	}
	var b strings.Builder
	for i, ft := range fs.list[:fs.n] {
		if i > 0 {
			b.WriteString("; ")
		}
		got := invariants.KindName(ft.got)
		if ft.got.Kind() == decode.KindString && !ft.got.IsNonEmptyStr() {
			got = "empty"
		}
		b.WriteString(ft.field + " is " + got + ", want " + ft.want)
	}
	m.Malformed(event, b.String())
}

func checkBegin(f *decode.Frame, m *invariants.Mapping) {
	var fs faults
	fs.str(f, "message_id")
	fs.str(f, "correlation_group")
	fs.str(f, "modality")
	fs.str(f, "trace_id")
	fs.str(f, "agent_id")
	fs.count(f, "expected_chunks", true)
	fs.raise(m, nameBegin)
}

func checkChunk(f *decode.Frame, m *invariants.Mapping) {
	var fs faults
	fs.str(f, "message_id")
	if _, ok := invariants.Int(f.Get("seq_no")); !ok {
		fs.add("seq_no", f.Get("seq_no"), "an integer")
	}
	if v := f.Get("payload"); v.Kind() != decode.KindString {
		fs.add("payload", v, "a string")
	}
	fs.boolean(f, "is_partial")
	fs.str(f, "content_type")
	fs.raise(m, nameChunk)
}

func checkEnd(f *decode.Frame, m *invariants.Mapping, final bool) {
	var fs faults
	fs.str(f, "message_id")
	fs.boolean(f, "final")
	fs.count(f, "total_chunks", !final)
	if v := f.Get("checksum"); v.Kind() != decode.KindString && (final || v != nil) {
		fs.add("checksum", v, "a string")
	}
	fs.raise(m, nameEnd)
}
