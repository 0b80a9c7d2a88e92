package decode

import (
	"strings"
	"testing"
)

// The cases below restate, with our own inputs, the behaviours checked by
// the WPT eventsource/format-* tests and by the parsing cases of the
// LaunchDarkly SSE contract tests. Expected results follow the WHATWG
// "event stream interpretation" algorithm. What a browser would expose as a
// MessageEvent is summarised as a dispatched value: type ("message" when no
// or an empty event field), data and lastEventId.

type dispatched struct {
	typ, data, lastID string
}

type conformanceCase struct {
	name string
	in   string
	want []dispatched
	// extra checks on all emitted blocks, optional.
	check func(t *testing.T, evs []Event)
}

func msg(data string) dispatched { return dispatched{"message", data, ""} }

var longComment = strings.Repeat("x", 2049)

var conformanceCases = []conformanceCase{
	// --- WPT format-bom: one leading BOM is skipped; a later one is part
	// of the field name, which makes the line an unknown field.
	{
		name: "wpt/format-bom",
		in:   "\uFEFFdata: 1\n\n\uFEFFdata: 2\n\ndata: 3\n\n",
		want: []dispatched{msg("1"), msg("3")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 3 || evs[1].HasData || evs[1].Unknown != 1 || evs[0].Offset != 3 {
				t.Errorf("BOM block handling:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-bom-2: only one BOM is skipped.
	{
		name: "wpt/format-bom-2",
		in:   "\uFEFF\uFEFFdata: 1\n\ndata: 2\n\ndata: 3\n\n",
		want: []dispatched{msg("2"), msg("3")},
	},
	// --- WPT format-comments: comments of any length, including ones with
	// NUL or text that looks like a field, anywhere between data lines and
	// with every kind of line ending.
	{
		name: "wpt/format-comments",
		in: "data:1\r:\x00\n:\r\ndata:2\n:" + longComment + "\rdata:3\n:data:fail\r:" +
			longComment + "\ndata:4\n\n",
		want: []dispatched{msg("1\n2\n3\n4")},
		check: func(t *testing.T, evs []Event) {
			want := []string{"\x00", "", longComment, "data:fail", longComment}
			if len(evs) != 1 || len(evs[0].Comments) != len(want) {
				t.Fatalf("comments:\n%s", describe(evs))
			}
			for i, c := range evs[0].Comments {
				if string(c) != want[i] {
					t.Errorf("comment %d = %q, want %q", i, c, want[i])
				}
			}
		},
	},
	// --- WPT format-data-before-final-empty-line: a block the stream ends
	// in (no blank line) is not dispatched.
	{
		name: "wpt/format-data-before-final-empty-line",
		in:   "retry:1000\ndata:test1\n\nid:test\ndata:test2",
		want: []dispatched{msg("test1")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 2 || !evs[1].Truncated || evs[1].Dispatched() {
				t.Errorf("trailing block:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-data: `data:` and a bare `data` both add an
	// empty line to the data buffer; an empty data buffer still dispatches
	// when a data field was seen.
	{
		name: "wpt/format-field-data",
		in:   "data:\n\ndata\ndata\n\ndata:test\n\n",
		want: []dispatched{msg(""), msg("\n"), msg("test")},
	},
	// --- WPT format-field-event: the event field names the type; it does
	// not carry over to the next block.
	{
		name: "wpt/format-field-event",
		in:   "event:test\ndata:x\n\ndata:x\n\n",
		want: []dispatched{{"test", "x", ""}, msg("x")},
	},
	// --- WPT format-field-event-empty: an empty type means "message".
	{
		name: "wpt/format-field-event-empty",
		in:   "event: \ndata:data\n\n",
		want: []dispatched{msg("data")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 1 || !evs[0].HasType || evs[0].Type != "" {
				t.Errorf("empty event field:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-id: lastEventId is set by id and persists.
	{
		name: "wpt/format-field-id",
		in:   "id: 1\ndata: 1\n\ndata: 2\n\n",
		want: []dispatched{{"message", "1", "1"}, {"message", "2", "1"}},
	},
	// --- WPT format-field-id-2: an id in a block without data still sets
	// lastEventId; an empty id resets it.
	{
		name: "wpt/format-field-id-2",
		in:   "id: 1\n\ndata: a\n\nid\ndata: b\n\nid: 3\ndata: c\n\nid:\ndata: d\n\n",
		want: []dispatched{{"message", "a", "1"}, {"message", "b", ""}, {"message", "c", "3"}, {"message", "d", ""}},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 5 || evs[0].Dispatched() || !evs[0].HasID || evs[0].ID != "1" {
				t.Errorf("id-only block:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-id-null: an id containing NUL is ignored.
	{
		name: "wpt/format-field-id-null",
		in:   "id: a\ndata: 1\n\nid: b\x00c\ndata: 2\n\n",
		want: []dispatched{{"message", "1", "a"}, {"message", "2", "a"}},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 2 || evs[1].HasID {
				t.Errorf("NUL id:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-parsing: field names are case-sensitive and
	// exact; one space after the colon is removed; NUL is ordinary.
	{
		name: "wpt/format-field-parsing",
		in: "data:\x00\ndata:  2\rData:1\ndata\x00:2\ndata:1\r\x00data:4\nda-ta:3\rdata_5\n" +
			"data:3\rdata:\r\n data:32\ndata:4\n\n",
		want: []dispatched{msg("\x00\n 2\n1\n3\n\n4")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 1 || evs[0].Unknown != 6 {
				t.Errorf("unknown fields:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-retry: digits only, leading zeros allowed.
	{
		name: "wpt/format-field-retry",
		in:   "retry:03000\ndata:x\n\n",
		want: []dispatched{msg("x")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 1 || !evs[0].HasRetry || evs[0].Retry != 3000 {
				t.Errorf("retry:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-retry-bogus: a non-digit value is ignored and
	// does not override an earlier valid one.
	{
		name: "wpt/format-field-retry-bogus",
		in:   "retry:3000\nretry:1000x\ndata:x\n\nretry: -1\ndata:y\n\nretry: 1 \ndata:z\n\n",
		want: []dispatched{msg("x"), msg("y"), msg("z")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 3 || evs[0].Retry != 3000 || evs[1].HasRetry || evs[2].HasRetry {
				t.Errorf("bogus retry:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-field-retry-empty: an empty retry is ignored.
	{
		name: "wpt/format-field-retry-empty",
		in:   "retry\ndata:test\n\nretry:\ndata:test\n\n",
		want: []dispatched{msg("test"), msg("test")},
		check: func(t *testing.T, evs []Event) {
			for _, e := range evs {
				if e.HasRetry {
					t.Errorf("empty retry accepted:\n%s", describe(evs))
				}
			}
		},
	},
	// --- WPT format-field-unknown: unknown fields and lines without a
	// colon are ignored.
	{
		name: "wpt/format-field-unknown",
		in:   "data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test\n\n",
		want: []dispatched{msg("test\n\ntest")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 1 || evs[0].Unknown != 3 || len(evs[0].Comments) != 1 {
				t.Errorf("unknown:\n%s", describe(evs))
			}
		},
	},
	// --- WPT format-leading-space: only one U+0020 is removed, never a
	// tab.
	{
		name: "wpt/format-leading-space",
		in:   "data:\ttest\rdata: \ndata:test\n\n",
		want: []dispatched{msg("\ttest\n\ntest")},
	},
	// --- WPT format-newlines: CRLF, LF and CR all end lines.
	{
		name: "wpt/format-newlines",
		in:   "data:test\r\ndata\ndata:test\r\n\r\n",
		want: []dispatched{msg("test\n\ntest")},
	},
	// --- WPT format-null-character: NUL in data is kept.
	{
		name: "wpt/format-null-character",
		in:   "data:\x00\n\n\n\n",
		want: []dispatched{msg("\x00")},
	},
	// --- WPT format-utf-8: the stream is UTF-8; bytes pass through.
	{
		name: "wpt/format-utf-8",
		in:   "data:ok\u2026\n\n",
		want: []dispatched{msg("ok\u2026")},
	},
	// --- The framer never alters bytes, even ones that are not UTF-8 (the
	// frame layer reports them).
	{
		name: "bytes-kept/invalid-utf-8",
		in:   "event: \xff\xfe\ndata: \xc3\x28 \xed\xa0\x80\n\n",
		want: []dispatched{{"\xff\xfe", "\xc3\x28 \xed\xa0\x80", ""}},
	},
	// WPT format-mime-* (Content-Type checks) are about the HTTP response,
	// which the framer never sees; the framer frames whatever bytes it is
	// given. They belong to the layer that opens the stream.

	// --- LaunchDarkly contract tests: parsing.
	{
		name: "ld/basic-event",
		in:   "event: greeting\ndata: hello\n\n",
		want: []dispatched{{"greeting", "hello", ""}},
	},
	{
		name: "ld/multi-line-data",
		in:   "data: line1\ndata: line2\ndata:\ndata: line4\n\n",
		want: []dispatched{msg("line1\nline2\n\nline4")},
	},
	{
		name: "ld/comments-ignored",
		in:   ": hi\ndata: a\n: there\n\n:only a comment\n\n",
		want: []dispatched{msg("a")},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 2 || evs[1].Dispatched() || string(evs[1].Comments[0]) != "only a comment" {
				t.Errorf("comment-only block:\n%s", describe(evs))
			}
		},
	},
	{
		name: "ld/lf-endings",
		in:   "event: a\ndata: 1\n\nevent: b\ndata: 2\n\n",
		want: []dispatched{{"a", "1", ""}, {"b", "2", ""}},
	},
	{
		name: "ld/cr-endings",
		in:   "event: a\rdata: 1\r\revent: b\rdata: 2\r\r",
		want: []dispatched{{"a", "1", ""}, {"b", "2", ""}},
	},
	{
		name: "ld/crlf-endings",
		in:   "event: a\r\ndata: 1\r\n\r\nevent: b\r\ndata: 2\r\n\r\n",
		want: []dispatched{{"a", "1", ""}, {"b", "2", ""}},
	},
	{
		name: "ld/mixed-endings",
		in:   "data: 1\rdata: 2\r\ndata: 3\n\r\ndata: 4\r\r",
		want: []dispatched{msg("1\n2\n3"), msg("4")},
	},
	{
		name: "ld/bom-at-start",
		in:   "\uFEFFevent: a\ndata: 1\n\n",
		want: []dispatched{{"a", "1", ""}},
	},
	{
		name: "ld/event-without-data-not-dispatched",
		in:   "event: nothing\n\nid: 4\n\nretry: 7\n\nfoo: bar\n\ndata: x\n\n",
		want: []dispatched{{"message", "x", "4"}},
		check: func(t *testing.T, evs []Event) {
			if len(evs) != 5 {
				t.Errorf("data-less blocks must still be reported:\n%s", describe(evs))
			}
		},
	},
	{
		name: "ld/id-persists",
		in:   "id: abc\ndata: 1\n\ndata: 2\n\nevent: t\ndata: 3\n\nid: def\ndata: 4\n\n",
		want: []dispatched{{"message", "1", "abc"}, {"message", "2", "abc"}, {"t", "3", "abc"}, {"message", "4", "def"}},
	},
	{
		name: "ld/field-without-space",
		in:   "event:a\ndata:1\nid:2\n\n",
		want: []dispatched{{"a", "1", "2"}},
	},
	{
		name: "ld/value-with-colons",
		in:   "data: a: b:c\n\n",
		want: []dispatched{msg("a: b:c")},
	},
	{
		name: "ld/many-blank-lines-between",
		in:   "\n\n\r\ndata: 1\n\n\n\r\r\n\ndata: 2\n\n",
		want: []dispatched{msg("1"), msg("2")},
	},
}

func TestSSEConformance(t *testing.T) {
	for _, tc := range conformanceCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			whole := frameWhole(in, 0)
			for _, run := range []struct {
				name string
				evs  []Event
			}{
				{"whole", whole},
				{"bytewise", frameChunked(in, 1, 0)},
				{"2-byte", frameChunked(in, 2, 0)},
			} {
				var got []dispatched
				for _, e := range run.evs {
					if !e.Dispatched() {
						continue
					}
					typ := e.Type
					if typ == "" {
						typ = "message"
					}
					got = append(got, dispatched{typ, string(e.Data), e.LastEventID})
				}
				if len(got) != len(tc.want) {
					t.Fatalf("%s: got %d dispatched events %q, want %q", run.name, len(got), got, tc.want)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("%s: event %d = %q, want %q", run.name, i, got[i], tc.want[i])
					}
				}
				if !sameEvents(run.evs, whole) {
					t.Errorf("%s differs from whole:\n%s\nwhole:\n%s", run.name, describe(run.evs), describe(whole))
				}
			}
			if tc.check != nil {
				tc.check(t, whole)
			}
			if !sameEvents(whole, refFrame(in, 0)) {
				t.Errorf("framer and model disagree:\n%s\nmodel:\n%s", describe(whole), describe(refFrame(in, 0)))
			}
		})
	}
}
