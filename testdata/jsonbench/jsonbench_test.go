// Package jsonbench compares ways to do what the check pipeline does with
// every frame's data: validate that the whole data is one JSON object and
// pull out the envelope (event_type, version, timestamp, response_id).
//
// It is a module of its own so that the benchmark-only dependencies never
// reach framescope's go.mod, and it lives under testdata/ so that
// `go test ./...` of the main module never runs it:
//
//	cd testdata/jsonbench && go mod tidy && go test -bench . -benchmem
package jsonbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	gojson "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"framescope/decode"
)

// envelope is the FR-2 envelope as Go strings.
type envelope struct {
	EventType  string `json:"event_type"`
	Version    string `json:"version"`
	Timestamp  string `json:"timestamp"`
	ResponseID string `json:"response_id"`
}

// A typical text frame: 250 bytes of data.
var textFrame = []byte(`{"event_type":"text","version":"0.5","timestamp":"2026-05-15T18:00:06.789Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","chunk":"Here are three offers near you: 10% off coffee, 2x points on fuel and \"Bonus 500 pts\" café"}`)

// One of each common frame shape, as in a turn (151–351 bytes, mean 226).
var mixFrames = [][]byte{
	[]byte(`{"event_type":"response_id","version":"0.5","timestamp":"2026-05-15T18:00:05.781Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4"}`),
	[]byte(`{"event_type":"status","version":"0.5","timestamp":"2026-05-15T18:00:05.851Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","data":{"event_id":"searching_offers","message":"Searching for offers..."}}`),
	[]byte(`{"event_type":"tool_call","version":"0.5","timestamp":"2026-05-15T18:00:05.889Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","tool_call":{"id":"call_a7c1da2880018ae7a387134c","name":"lookup_merchant","type":"mcp"}}`),
	[]byte(`{"event_type":"data_loaded","version":"0.5","timestamp":"2026-05-15T18:00:06.757Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","data":{"id":"merchant-list-1","type":"merchant_list","key":{"ids":[{"id":"MER_4464"},{"id":"MER_8779"}]},"items":[{"id":"MER_4464","name":"3x on dining"},{"id":"MER_8779","name":"Bonus 500 pts"}]}}`),
	textFrame,
	[]byte(`{"event_type":"text","version":"0.5","timestamp":"2026-05-15T18:00:06.807Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","chunk":"this week only\ndining statement"}`),
	[]byte(`{"event_type":"usage","version":"0.5","timestamp":"2026-05-15T18:00:08.101Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4","input_tokens":2711,"output_tokens":903,"total_tokens":3614,"reasoning_tokens":120,"cached_tokens":1024}`),
	[]byte(`{"event_type":"completed","version":"0.5","timestamp":"2026-05-15T18:00:08.140Z","response_id":"resp_42e06a462aa0c13b95dd4c7a152f73b6d9126624276254e4"}`),
}

var errNotObject = errors.New("not a JSON object")

// isObjectStart reports whether the first non-space byte opens an object:
// a struct Unmarshal accepts `null` (and gjson validation accepts any
// value), so every approach needs it to reject non-objects.
func isObjectStart(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '{'
	}
	return false
}

// rawEnvelope is the envelope as framescope's pipeline keeps it: spans of
// the data, decoded only when a rule needs a string.
type rawEnvelope struct {
	EventType, Version, Timestamp, ResponseID decode.Raw
}

// (a) framescope: decode.ScanObject validates the whole value in one pass
// and records the top-level members; the envelope is read from them.
func scanRaw(data []byte, members []decode.Member, out *rawEnvelope) ([]decode.Member, error) {
	members, isObj, err := decode.ScanObject(data, members[:0])
	if err != nil {
		return members, err
	}
	if !isObj {
		return members, errNotObject
	}
	*out = rawEnvelope{}
	for i := range members {
		m := &members[i]
		if m.KeyEsc {
			continue // an escaped key: none of the envelope's (framescope decodes it; rare)
		}
		switch string(m.Key) {
		case "event_type":
			out.EventType = m.Value
		case "version":
			out.Version = m.Value
		case "timestamp":
			out.Timestamp = m.Value
		case "response_id":
			out.ResponseID = m.Value
		}
	}
	return members, nil
}

// (a') framescope + Go strings, the same output as the struct decoders.
func scanStrings(data []byte, members []decode.Member, out *envelope) ([]decode.Member, error) {
	var raw rawEnvelope
	members, err := scanRaw(data, members, &raw)
	if err != nil {
		return members, err
	}
	out.EventType, _ = raw.EventType.Str()
	out.Version, _ = raw.Version.Str()
	out.Timestamp, _ = raw.Timestamp.Str()
	out.ResponseID, _ = raw.ResponseID.Str()
	return members, nil
}

// (b) encoding/json: Unmarshal validates the whole input before decoding.
func stdUnmarshal(data []byte, out *envelope) error {
	if !isObjectStart(data) {
		return errNotObject
	}
	*out = envelope{}
	return json.Unmarshal(data, out)
}

// (c) gjson: a validation pass, then one lookup pass for the four paths.
func gjsonGet(data []byte, out *envelope) error {
	if !gjson.ValidBytes(data) {
		return errors.New("invalid JSON")
	}
	if !isObjectStart(data) {
		return errNotObject
	}
	r := gjson.GetManyBytes(data, "event_type", "version", "timestamp", "response_id")
	*out = envelope{EventType: r[0].String(), Version: r[1].String(), Timestamp: r[2].String(), ResponseID: r[3].String()}
	return nil
}

// (d) goccy/go-json: a drop-in encoding/json replacement.
func goccyUnmarshal(data []byte, out *envelope) error {
	if !isObjectStart(data) {
		return errNotObject
	}
	*out = envelope{}
	return gojson.Unmarshal(data, out)
}

var sinkEnv envelope
var sinkRaw rawEnvelope

type approach struct {
	name string
	// newFn returns a function that processes one frame; state it needs
	// (the member buffer) is made once, as a pipeline would.
	newFn func() func([]byte) error
}

var approaches = []approach{
	{"framescope-raw", func() func([]byte) error {
		var members []decode.Member
		return func(d []byte) (err error) {
			members, err = scanRaw(d, members, &sinkRaw)
			return err
		}
	}},
	{"framescope-strings", func() func([]byte) error {
		var members []decode.Member
		return func(d []byte) (err error) {
			members, err = scanStrings(d, members, &sinkEnv)
			return err
		}
	}},
	{"encoding-json", func() func([]byte) error {
		return func(d []byte) error { return stdUnmarshal(d, &sinkEnv) }
	}},
	{"gjson", func() func([]byte) error {
		return func(d []byte) error { return gjsonGet(d, &sinkEnv) }
	}},
	{"goccy-go-json", func() func([]byte) error {
		return func(d []byte) error { return goccyUnmarshal(d, &sinkEnv) }
	}},
}

// BenchmarkEnvelope: in "text" one op is one 250-byte text frame; in "mix"
// one op is one frame of each common shape (8 frames, mean 226 bytes), and
// ns/frame is the per-frame cost.
func BenchmarkEnvelope(b *testing.B) {
	mixBytes := 0
	for _, f := range mixFrames {
		mixBytes += len(f)
	}
	for _, a := range approaches {
		b.Run("text/"+a.name, func(b *testing.B) {
			fn := a.newFn()
			b.SetBytes(int64(len(textFrame)))
			b.ReportAllocs()
			for b.Loop() {
				if err := fn(textFrame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, a := range approaches {
		b.Run("mix/"+a.name, func(b *testing.B) {
			fn := a.newFn()
			// SetBytes needs a constant per op: one op is the whole mix,
			// reported per frame as ns/frame.
			b.SetBytes(int64(mixBytes))
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range mixFrames {
					if err := fn(f); err != nil {
						b.Fatal(err)
					}
				}
			}
			if b.N > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mixFrames)), "ns/frame")
			}
		})
	}
}

// TestApproachesAgree: every approach extracts the same envelope from the
// frames and rejects the same broken or non-object data, so the benchmark
// compares equal work. Known divergences are reported, not hidden.
func TestApproachesAgree(t *testing.T) {
	for _, f := range append([][]byte{textFrame}, mixFrames...) {
		var want envelope
		if err := json.Unmarshal(f, &want); err != nil {
			t.Fatal(err)
		}
		var got envelope
		var members []decode.Member
		if _, err := scanStrings(f, members, &got); err != nil || got != want {
			t.Errorf("framescope: %+v %v, want %+v", got, err, want)
		}
		for name, fn := range map[string]func([]byte, *envelope) error{
			"encoding-json": stdUnmarshal, "gjson": gjsonGet, "goccy-go-json": goccyUnmarshal,
		} {
			got = envelope{}
			if err := fn(f, &got); err != nil || got != want {
				t.Errorf("%s: %+v %v, want %+v", name, got, err, want)
			}
		}
	}

	bad := []string{
		`null`, `[1,2]`, `"s"`, `42`, ``, `  `,
		`{"event_type":"text"`,                             // cut off
		`{"event_type":"text"}}`,                           // trailing garbage
		`{"event_type":"text"} {"a":1}`,                    // two values
		`{"event_type":"text","chunk":"a` + "\x01" + `b"}`, // raw control character
		`{"event_type":"text","x":[1,2,}`,                  // broken in a skipped member
		`{"event_type":"text","x":{"a" 1}}`,                // missing colon in a skipped member
		`{"event_type":"text","x":"\q"}`,                   // bad escape in a skipped member
		`{"event_type":"text","x":01}`,                     // leading zero in a skipped member
		`{"event_type":"text","x":tru}`,                    // bad literal in a skipped member
		`{"event_type":"text",}`,                           // trailing comma
		`{event_type:"text"}`,                              // unquoted key
		`{"event_type":"text","x":"\u12G4"}`,               // bad \u escape in a skipped member
		`{"event_type":"text","x":1.}`,                     // bad fraction in a skipped member
		`{"event_type":"text","x":-}`,                      // bare minus in a skipped member
		`{"event_type":"text","x":1e}`,                     // bad exponent in a skipped member
		`{"event_type":"text","x":[[[{"a":"b}]]]}`,         // unterminated nested string
		`{"event_type":"text","x":[[[[[[[[1]]]]]]]}`,       // unbalanced nesting
	}
	// A repeated key: encoding/json and framescope take the last one.
	dup := []byte(`{"event_type":"first","version":"0.5","event_type":"last"}`)
	{
		var e envelope
		var members []decode.Member
		if _, err := scanStrings(dup, members, &e); err != nil || e.EventType != "last" {
			t.Errorf("framescope on a repeated key: %q %v", e.EventType, err)
		}
		for name, fn := range map[string]func([]byte, *envelope) error{
			"encoding-json": stdUnmarshal, "gjson": gjsonGet, "goccy-go-json": goccyUnmarshal,
		} {
			e = envelope{}
			err := fn(dup, &e)
			switch {
			case err != nil || e.EventType != "last" && name == "encoding-json":
				t.Errorf("%s on a repeated key: %q %v", name, e.EventType, err)
			case e.EventType != "last":
				t.Logf("divergence: %s takes %q from a repeated key (encoding/json: the last)", name, e.EventType)
			}
		}
	}

	for _, d := range bad {
		data := []byte(d)
		var members []decode.Member
		var e envelope
		results := map[string]bool{}
		_, err := scanStrings(data, members, &e)
		results["framescope"] = err != nil
		results["encoding-json"] = stdUnmarshal(data, &e) != nil
		results["gjson"] = gjsonGet(data, &e) != nil
		results["goccy-go-json"] = goccyUnmarshal(data, &e) != nil
		for name, rejected := range results {
			if !rejected {
				msg := fmt.Sprintf("%s accepts invalid or non-object data %q", name, d)
				if name == "framescope" || name == "encoding-json" {
					t.Error(msg)
				} else {
					t.Log("divergence: " + msg)
				}
			}
		}
	}
}
