package decode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// frameCuts runs a fresh Framer (max event size max; 0 means the default)
// over in, cut at the given increasing positions, and returns deep copies
// of every emitted event.
func frameCuts(in []byte, cuts []int, max int64) []Event {
	f := NewFramer()
	if max > 0 {
		f.SetMaxEventSize(max)
	}
	var out []Event
	emit := func(e *Event) { out = append(out, e.Clone()) }
	prev := 0
	for _, c := range cuts {
		if c < prev || c > len(in) {
			continue
		}
		// Copy each piece and scribble over it afterwards, to prove the
		// framer keeps nothing pointing into a fed buffer.
		piece := append([]byte(nil), in[prev:c]...)
		f.Feed(piece, emit)
		for i := range piece {
			piece[i] = 0xA5
		}
		prev = c
	}
	piece := append([]byte(nil), in[prev:]...)
	f.Feed(piece, emit)
	for i := range piece {
		piece[i] = 0xA5
	}
	if got := f.Offset(); got != int64(len(in)) {
		panic(fmt.Sprintf("Offset() = %d after feeding %d bytes", got, len(in)))
	}
	f.Close(emit)
	return out
}

// frameChunked feeds in pieces of n bytes.
func frameChunked(in []byte, n int, max int64) []Event {
	var cuts []int
	for c := n; c < len(in); c += n {
		cuts = append(cuts, c)
	}
	return frameCuts(in, cuts, max)
}

func frameWhole(in []byte, max int64) []Event { return frameCuts(in, nil, max) }

// randomCuts returns sorted cut positions for in, drawn from r.
func randomCuts(r *rand.Rand, n int) []int {
	if n == 0 {
		return nil
	}
	k := r.IntN(min(n, 40) + 1)
	cuts := make([]int, 0, k)
	for range k {
		cuts = append(cuts, r.IntN(n+1))
	}
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j] < cuts[j-1]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	return cuts
}

// refFrame is a deliberately plain, whole-input implementation of the same
// rules as Framer: the model the tests compare the incremental one with.
func refFrame(in []byte, max int64) []Event {
	if max <= 0 {
		max = DefaultMaxEventSize
	}
	type line struct{ s, e int }
	var (
		out    []Event
		lastID string
		lines  []line
		bs     = -1
		pos    = 0
	)
	if bytes.HasPrefix(in, bom[:]) {
		pos = len(bom)
	}
	build := func(end int, truncated bool) {
		ev := Event{Offset: int64(bs), Size: int64(end - bs), Truncated: truncated}
		ev.Oversized = ev.Size > max
		if !ev.Oversized {
			ev.Raw = append([]byte(nil), in[bs:end]...)
		}
		var data []byte
		for _, l := range lines {
			content := in[l.s:l.e]
			long := int64(len(content)) > max
			if content[0] == ':' {
				if !ev.Oversized {
					ev.Comments = append(ev.Comments, append([]byte{}, content[1:]...))
				}
				continue
			}
			name, value := content, []byte{}
			if c := bytes.IndexByte(content, ':'); c >= 0 {
				name, value = content[:c], content[c+1:]
				if len(value) > 0 && value[0] == ' ' {
					value = value[1:]
				}
			}
			switch string(name) {
			case "data":
				ev.HasData = true
				data = append(append(data, value...), '\n')
			case "event":
				ev.HasType = true
				ev.Type = string(value)
				if long {
					ev.Type = ""
				}
			case "id":
				if long || bytes.IndexByte(value, 0) >= 0 {
					break
				}
				ev.HasID = true
				ev.ID = string(value)
				lastID = ev.ID
			case "retry":
				if long {
					break
				}
				if n, ok := parseRetryRef(string(value)); ok {
					ev.HasRetry = true
					ev.Retry = n
				}
			default:
				ev.Unknown++
			}
		}
		if len(data) > 1 && !ev.Oversized {
			ev.Data = data[:len(data)-1]
		}
		ev.LastEventID = lastID
		out = append(out, ev)
		lines = lines[:0]
		bs = -1
	}
	for pos < len(in) {
		e := pos
		for e < len(in) && in[e] != '\n' && in[e] != '\r' {
			e++
		}
		if e == len(in) { // unterminated final line
			if bs < 0 {
				bs = pos
			}
			lines = append(lines, line{pos, e})
			break
		}
		end := e + 1
		if in[e] == '\r' && end < len(in) && in[end] == '\n' {
			end++
		}
		if e == pos {
			if bs >= 0 {
				build(end, false)
			}
		} else {
			if bs < 0 {
				bs = pos
			}
			lines = append(lines, line{pos, e})
		}
		pos = end
	}
	if bs >= 0 {
		build(len(in), true)
	}
	return out
}

func parseRetryRef(s string) (int64, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	var n int64
	for _, c := range s {
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

func describe(evs []Event) string {
	var b strings.Builder
	for i, e := range evs {
		fmt.Fprintf(&b, "  [%d] off=%d size=%d raw=%q type=%q/%v data=%q/%v id=%q/%v last=%q retry=%d/%v comments=%q unknown=%d trunc=%v over=%v\n",
			i, e.Offset, e.Size, e.Raw, e.Type, e.HasType, e.Data, e.HasData, e.ID, e.HasID,
			e.LastEventID, e.Retry, e.HasRetry, e.Comments, e.Unknown, e.Truncated, e.Oversized)
	}
	return b.String()
}

func sameEvents(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// checkFramer compares the framer, fed whole, byte by byte, in 2- and
// 3-byte pieces and at random cuts, with the reference model.
func checkFramer(t *testing.T, in []byte, max int64, r *rand.Rand) []Event {
	t.Helper()
	want := refFrame(in, max)
	runs := []struct {
		name string
		got  []Event
	}{
		{"whole", frameWhole(in, max)},
		{"bytewise", frameChunked(in, 1, max)},
		{"2-byte", frameChunked(in, 2, max)},
		{"3-byte", frameChunked(in, 3, max)},
	}
	if r != nil {
		for k := range 5 {
			runs = append(runs, struct {
				name string
				got  []Event
			}{fmt.Sprintf("random%d", k), frameCuts(in, randomCuts(r, len(in)), max)})
		}
	}
	for _, run := range runs {
		if !sameEvents(run.got, want) {
			t.Fatalf("input %q max %d, %s:\ngot\n%swant\n%s", in, max, run.name, describe(run.got), describe(want))
		}
	}
	return want
}

func TestFramerModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := []string{
		"",
		"\n\n\r\n\r\r",
		"data: a\n\n",
		"data: a\r\n\r\n",
		"data: a\r\r",
		"data: a\r\n\r",
		"data: a\r\r\n",
		"data: a\n\r\ndata: b\r\n\n",
		":c1\n: c2\n:\nfoo\n\n",
		"event: x\nid: 1\nretry: 5\n\n",
		"data: a\ndata\ndata:\ndata: b\n\nevent: e\ndata: 1\n\n",
		"\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n",
		"\xEF\xBB\xBF",
		"\xEF\xBB",
		"\xEF\xBBdata: x\n\n",
		"\xEFdata: x\n\n",
		"\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n",
		"\n\xEF\xBB\xBFdata: x\n\n",
		"data: trailing",
		"data: trailing\n",
		"data: trailing\r",
		"data: trailing\r\n",
		"id: a\x00b\ndata: 1\n\nid: ok\n\ndata: 2\n\nid\ndata: 3\n\n",
		"retry: 99999999999999999999\ndata: x\n\nretry: 1x\n\nretry:\n\nretry: 12\n\n",
		"data: " + strings.Repeat("x", 300) + "\n\n",
		"event: a\nevent\ndata: x\n\nevent: a\ndata:y\n\n",
	}
	for _, in := range inputs {
		for _, max := range []int64{0, 1, 5, 8, 12, 20} {
			checkFramer(t, []byte(in), max, r)
		}
	}
}

func TestFramerFields(t *testing.T) {
	in := "\xEF\xBB\xBF: hello\nevent: upd\nid: 7\nretry: 1500\nfoo: bar\ndata: a\ndata: b\n\n\n\ndata: c\n\n"
	evs := checkFramer(t, []byte(in), 0, nil)
	if len(evs) != 2 {
		t.Fatalf("got %d events:\n%s", len(evs), describe(evs))
	}
	e := evs[0]
	if e.Offset != 3 || e.Type != "upd" || !e.HasType || string(e.Data) != "a\nb" || e.ID != "7" ||
		e.LastEventID != "7" || e.Retry != 1500 || !e.HasRetry || e.Unknown != 1 ||
		len(e.Comments) != 1 || string(e.Comments[0]) != " hello" || !e.Dispatched() {
		t.Errorf("first event wrong:\n%s", describe(evs[:1]))
	}
	if string(e.Raw) != in[3:strings.Index(in, "\n\n")+2] || e.Size != int64(len(e.Raw)) {
		t.Errorf("raw %q", e.Raw)
	}
	e = evs[1]
	if want := int64(strings.Index(in, "data: c")); e.Offset != want || string(e.Raw) != "data: c\n\n" {
		t.Errorf("second event offset %d raw %q, want %d", e.Offset, e.Raw, want)
	}
	if e.HasID || e.ID != "" || e.LastEventID != "7" || e.HasType || e.Type != "" {
		t.Errorf("second event id/type wrong:\n%s", describe(evs[1:]))
	}
}

func TestFramerTruncated(t *testing.T) {
	for _, in := range []string{"data: a\n\ndata: b", "data: a\n\ndata: b\n", "data: a\n\nid: 5\r"} {
		evs := checkFramer(t, []byte(in), 0, nil)
		if len(evs) != 2 || evs[0].Truncated || !evs[0].Dispatched() {
			t.Fatalf("%q:\n%s", in, describe(evs))
		}
		last := evs[1]
		if !last.Truncated || last.Dispatched() || string(last.Raw) != in[9:] {
			t.Errorf("%q: trailing block not reported as truncated:\n%s", in, describe(evs))
		}
	}
	// Only blank lines after the last block: nothing is truncated.
	if evs := frameWhole([]byte("data: a\n\n\r\n\n"), 0); len(evs) != 1 {
		t.Errorf("blank tail produced events:\n%s", describe(evs))
	}
}

// A block ending in a lone CR blank line at the end of a Feed is held until
// the next byte shows whether an LF belongs to it.
func TestFramerCRBlankLineAtFeedEnd(t *testing.T) {
	f := NewFramer()
	var got []Event
	emit := func(e *Event) { got = append(got, e.Clone()) }
	f.Feed([]byte("data: a\r\r"), emit)
	if len(got) != 0 {
		t.Fatalf("emitted before the line ending was known")
	}
	f.Feed([]byte("\ndata: b\n\n"), emit)
	if len(got) != 2 || string(got[0].Raw) != "data: a\r\r\n" || string(got[1].Raw) != "data: b\n\n" || got[1].Offset != 10 {
		t.Fatalf("got\n%s", describe(got))
	}
	got = nil
	f.Reset()
	f.Feed([]byte("data: a\r\r"), emit)
	f.Close(emit)
	if len(got) != 1 || got[0].Truncated || string(got[0].Raw) != "data: a\r\r" {
		t.Fatalf("at Close got\n%s", describe(got))
	}
}

// Events come out as soon as their blank line is fed.
func TestFramerLive(t *testing.T) {
	f := NewFramer()
	n := 0
	emit := func(*Event) { n++ }
	f.Feed([]byte("data: 1\n"), emit)
	if n != 0 {
		t.Fatal("emitted early")
	}
	f.Feed([]byte("\n"), emit)
	if n != 1 {
		t.Fatal("not emitted at its blank line")
	}
	f.Feed([]byte("data: 2\r\n\r\ndata: 3\n\ndata"), emit)
	if n != 3 {
		t.Fatalf("got %d events, want 3", n)
	}
}

func TestFramerOversizedSmall(t *testing.T) {
	big := "event: big\nid: 9\n: note\ndata: " + strings.Repeat("z", 100) + "\ndata: more\n\n"
	in := "data: a\n\n" + big + "event: small\ndata: ok\n\n"
	evs := checkFramer(t, []byte(in), 64, rand.New(rand.NewPCG(3, 4)))
	if len(evs) != 3 {
		t.Fatalf("got\n%s", describe(evs))
	}
	o := evs[1]
	if !o.Oversized || o.Raw != nil || o.Data != nil || o.Comments != nil || o.Size != int64(len(big)) ||
		!o.HasData || o.Type != "big" || o.ID != "9" || o.LastEventID != "9" || o.Offset != 9 {
		t.Errorf("oversized event wrong:\n%s", describe(evs[1:2]))
	}
	if s := evs[2]; s.Oversized || s.Type != "small" || string(s.Data) != "ok" || s.LastEventID != "9" {
		t.Errorf("event after the oversized one wrong:\n%s", describe(evs[2:]))
	}
	// Exactly at the limit is fine; one byte more is not.
	ok := "data: 12345\n\n"
	if evs := frameWhole([]byte(ok), int64(len(ok))); len(evs) != 1 || evs[0].Oversized {
		t.Errorf("event of exactly max size: %s", describe(evs))
	}
	if evs := frameChunked([]byte(ok), 1, int64(len(ok)-1)); len(evs) != 1 || !evs[0].Oversized || evs[0].Size != int64(len(ok)) {
		t.Errorf("event one byte over max: %s", describe(evs))
	}
}

// chunkReader produces a long stream without holding it in memory.
type chunkReader struct {
	parts [][]byte
	rep   []int
	i     int
	off   int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	for c.i < len(c.parts) {
		part := c.parts[c.i]
		if c.rep[c.i] == 0 {
			c.i++
			continue
		}
		n := copy(p, part[c.off:])
		c.off += n
		if c.off == len(part) {
			c.off = 0
			c.rep[c.i]--
		}
		return n, nil
	}
	return 0, io.EOF
}

func TestFramerOversized70MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	line := bytes.Repeat([]byte("y"), 1<<20)
	// A 70 MiB data value in one line, then a normal event.
	r := &chunkReader{
		parts: [][]byte{[]byte("event: huge\ndata: "), line, []byte("\n\nevent: next\ndata: fine\n\n")},
		rep:   []int{1, 70, 1},
	}
	var got []Event
	err := ReadEvents(r, func(e *Event) { got = append(got, e.Clone()) })
	if err != nil {
		t.Fatal(err)
	}
	wantSize := int64(len("event: huge\ndata: ")) + 70<<20 + 2
	if len(got) != 2 || !got[0].Oversized || got[0].Size != wantSize || got[0].Type != "huge" || !got[0].HasData || got[0].Raw != nil {
		t.Fatalf("got %d events: %+v", len(got), got)
	}
	if e := got[1]; e.Oversized || e.Type != "next" || string(e.Data) != "fine" || e.Offset != wantSize {
		t.Fatalf("event after the huge one: %s", describe(got[1:]))
	}
}

func TestFramerReset(t *testing.T) {
	f := NewFramer()
	var got []Event
	emit := func(e *Event) { got = append(got, e.Clone()) }
	f.Feed([]byte("id: 1\ndata: a\n\ndata: part"), emit)
	f.Reset()
	if f.Offset() != 0 {
		t.Fatalf("Offset after Reset = %d", f.Offset())
	}
	got = nil
	f.Feed([]byte("\xEF\xBB\xBFdata: b\n\n"), emit)
	if len(got) != 1 || got[0].LastEventID != "" || got[0].Offset != 3 || string(got[0].Data) != "b" {
		t.Fatalf("after Reset:\n%s", describe(got))
	}
}

func TestFramerOffsetDuringBOM(t *testing.T) {
	f := NewFramer()
	emit := func(*Event) {}
	f.Feed([]byte{0xEF}, emit)
	f.Feed([]byte{0xBB}, emit)
	if f.Offset() != 2 {
		t.Fatalf("Offset = %d, want 2", f.Offset())
	}
	f.Feed([]byte{0xBF}, emit)
	if f.Offset() != 3 {
		t.Fatalf("Offset = %d, want 3", f.Offset())
	}
}

func TestReadEvents(t *testing.T) {
	in := strings.Repeat("event: e\ndata: x\n\n", 10000) + "data: tail"
	var n, trunc int
	err := ReadEvents(iotest.HalfReader(strings.NewReader(in)), func(e *Event) {
		n++
		if e.Truncated {
			trunc++
		}
	})
	if err != nil || n != 10001 || trunc != 1 {
		t.Fatalf("err %v, %d events, %d truncated", err, n, trunc)
	}
	boom := errors.New("boom")
	n = 0
	err = ReadEvents(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom)), func(e *Event) {
		n++
	})
	if !errors.Is(err, boom) || n != 2 {
		t.Fatalf("err %v, %d events", err, n)
	}
}

func TestFramerZeroAllocs(t *testing.T) {
	var b bytes.Buffer
	// Twelve event types in turn: more than a small ring of recent types
	// holds (a dialect may name nine or more).
	for i := range 200 {
		fmt.Fprintf(&b, "event: type%d\ndata: {\"n\":%d}\n\n: ping\n\ndata: a\ndata: b\n\n", i%12, i)
	}
	in := b.Bytes()
	f := NewFramer()
	emit := func(*Event) {}
	f.Feed(in, emit) // warm the buffers and the type cache
	f.Reset()
	allocs := testing.AllocsPerRun(20, func() {
		f.Reset()
		for off := 0; off < len(in); off += 1000 {
			f.Feed(in[off:min(off+1000, len(in))], emit)
		}
		f.Close(emit)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run, want 0", allocs)
	}
}

// An oversized block must not make the framer buffer it: memory stays
// around the maximum event size however long the block and its lines are.
func TestFramerOversizedMemoryBounded(t *testing.T) {
	const max = 4 << 10
	f := NewFramer()
	f.SetMaxEventSize(max)
	var got []Event
	emit := func(e *Event) { got = append(got, e.Clone()) }
	chunk := 3000
	feed := func(s []byte) {
		for off := 0; off < len(s); off += chunk {
			f.Feed(s[off:min(off+chunk, len(s))], emit)
		}
	}
	feed([]byte("event: big\ndata: "))
	feed(bytes.Repeat([]byte("q"), 2<<20)) // one 2 MiB line
	feed([]byte("\n"))
	feed(bytes.Repeat([]byte("data: short line\n: and a comment\n"), 50000))
	feed([]byte("id: 42\n\ndata: after\n\n"))
	f.Close(emit)
	if len(got) != 2 || !got[0].Oversized || got[0].Type != "big" || got[0].ID != "42" || string(got[1].Data) != "after" {
		t.Fatalf("got\n%s", describe(got))
	}
	limit := 4*max + 2*chunk
	if c := cap(f.buf) + cap(f.scratch) + 16*cap(f.comSpans) + 24*cap(f.comments); c > limit {
		t.Errorf("framer holds %d bytes of buffers for an oversized block, want <= %d", c, limit)
	}
}
