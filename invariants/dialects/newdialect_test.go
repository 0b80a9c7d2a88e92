package dialects_test

import (
	"slices"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/dialects/dialecttest"
)

// ticker is a dialect made up for this test, written as a new dialect's
// folder would be: one Spec declaring its envelope key ("tick") and its
// signature. Registering it is one more entry in the list; no other
// dialect is edited, yet they read its key as foreign.
var ticker = &invariants.Spec{
	ID:    "ticker",
	About: "a made-up dialect: {\"tick\":N}, the last with \"end\":true",
	Shape: invariants.Shape{Turns: invariants.TurnPerStream},
	Keys:  []string{"tick"},
	SniffFrame: func(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
		if foreign.In(f) || f.Get("tick").Kind() != decode.KindNumber {
			return invariants.No
		}
		return invariants.Yes
	},
	NewMapper: func() invariants.Mapper { return tickerMapper{} },
}

type tickerMapper struct{}

func (tickerMapper) Map(f *decode.Frame, m *invariants.Mapping) {
	if f.Get("end").Kind() == decode.KindBool {
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCompleted})
	}
}

// TestNewDialectIsOneFolderAndOneLine registers a new Spec next to the
// real ones (the registry's one line) and checks that detection finds it,
// that no existing dialect claims its frames, and that an existing
// dialect's frame carrying its key is no longer read as that dialect's.
func TestNewDialectIsOneFolderAndOneLine(t *testing.T) {
	all := slices.Clone(dialects.All)
	registry := append(all[:len(all)-1:len(all)-1], ticker, all[len(all)-1]) // before sse, the fallback
	det := invariants.NewDetector(registry[:len(registry)-1])
	body := "data: {\"tick\":1}\n\ndata: {\"tick\":2,\"end\":true}\n\n"
	if got := dialecttest.Detect(det, body); got != ticker {
		t.Fatalf("a ticker stream was detected as %v, want ticker", got)
	}

	anthropicStart := `{"type":"message_start","message":{"id":"msg_1"}}`
	ev := decode.Event{Data: []byte(anthropicStart), HasData: true}
	f := decode.DecodeFrame(&ev, 0)
	withTick := `{"type":"message_start","message":{"id":"msg_1"},"tick":1}`
	ev2 := decode.Event{Data: []byte(withTick), HasData: true}
	g := decode.DecodeFrame(&ev2, 0)
	a, _ := dialects.Lookup("anthropic-messages")
	if a.Sniff(f, invariants.ForeignKeys(a, registry)) != invariants.Yes {
		t.Fatalf("anthropic no longer recognises its own message_start")
	}
	if got := a.Sniff(g, invariants.ForeignKeys(a, registry)); got != invariants.No {
		t.Errorf("a message_start carrying ticker's key sniffs %v for anthropic-messages, want No (derived from ticker's Spec)", got)
	}
	if got := a.Sniff(g, invariants.ForeignKeys(a, dialects.All)); got != invariants.Yes {
		t.Errorf("without ticker registered the same frame sniffs %v, want Yes", got)
	}

	res := dialecttest.Run(ticker, body)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("ticker turns %+v, want one completed turn", res.Turns)
	}
}
