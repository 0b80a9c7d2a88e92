package openaichat

import (
	"framescope/decode"
	"framescope/invariants"
)

// Bounds on the per-stream state, so a hostile stream cannot grow it
// without end: choices and tool calls past them are not tracked.
const (
	maxChoices = 128
	maxTools   = 512
)

// mapper keeps what the rules need across one stream's chunks: the
// envelope, every choice seen (and its finish_reason), every tool call.
// Its slices and byte arena are allocated once per stream, so mapping a
// valid frame allocates nothing.
type mapper struct {
	env     envelope
	created lastCreated // the last chunk's created, parsed (timing.go)
	choices []choice
	tools   []tool
	// arena holds copies of tool ids and names (JSON literals): later
	// deltas only carry the tool's index, and a move's Key must stay
	// valid after the frame that named it is gone.
	arena []byte
	keyed bool // the turn was named after the completion id
	// flavor is the provider flavor the stream is read as: the forced
	// one, else the one its marks named (flavored: settled, stop looking).
	flavor   string
	flavored bool
	guess    string // the first copied mark seen (flavor-guess), "" none
	// ended: the completion is over (an error object, or settled at
	// [DONE] or at the end of the stream); later chunks are the engine's
	// after-terminal, not the choices' business.
	ended bool
}

// choice is one choices[i] of the completion.
type choice struct {
	index  int64
	finish uint8  // finishNone until its finish_reason
	frame  int    // the frame of its finish_reason
	other  []byte // the literal of a finishOther reason (to tell repeats)
	role   bool   // a delta of the choice carried a role
	// audio: the audio parts its deltas carried (audioID…); audioEnd: the
	// frame of its last delta when that was an expires_at-only audio
	// delta, else -1 (see readAudio).
	audio    uint8
	audioEnd int
}

func newMapper() invariants.Mapper {
	return &mapper{
		choices: make([]choice, 0, 4),
		tools:   make([]tool, 0, 8),
		arena:   make([]byte, 0, 1024),
		env:     newEnvelope(),
	}
}

// Map reads one frame: an error object ends the completion as failed; a
// chunk checks the envelope, then maps each choice.
func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	e, obj := f.Get("error"), f.Get("object")
	if p.ended && (truthy(e) || obj.StrEq("error")) {
		// The completion is over: the engine says after-terminal, and a
		// second error object is no second terminal (the client threw at
		// the first).
		return
	}
	if truthy(e) {
		p.mapError(e, m)
		return
	}
	if obj.StrEq("error") {
		// vLLM's ErrorResponse: {"object":"error","message":…,"type":…,"code":…}.
		code, msg := errorFields(f.Get("code"), f.Get("type"), f.Get("message"))
		p.failed(code, msg, m)
		return
	}
	choices := f.Get("choices")
	// A chunk says so in object (Perplexity's last chunk says
	// chat.completion.done); Azure's filter chunks leave object empty, and
	// some servers omit it but still send choices.
	// TGI before 2.1 says text_completion on its chat chunks (sniff).
	chunk := obj.StrEq("chat.completion.chunk") || obj.StrEq("chat.completion.done") ||
		((obj == nil || obj.StrEq("")) && choices != nil) ||
		(obj.StrEq("text_completion") && firstDelta(choices))
	if !chunk {
		m.Unknown = true
		return
	}
	if p.ended {
		return // after-terminal (the engine's): nothing more to check
	}
	// The chunk's top-level members, once, for the flavor, the envelope
	// check and the timing.
	var marks chunkMarks
	marks.read(f)
	pending := p.readFlavor(&marks, m)
	defer func() {
		// After the choices: a flavor only a model id names is settled
		// once no choice named one (and on a chunk whose choices are
		// malformed), and Moonshot's usage is read from its finishing
		// choice once its marks named the stream.
		if pending && !p.flavored {
			p.settleFlavor(recogniseModel(&marks), m)
		}
		p.readTiming(&marks, m, choices)
	}()
	if p.checkEnvelope(f, m, marks.created, p.flavor == flavorGroq) {
		p.newCompletion()
	}
	if !p.keyed {
		if id := f.Get("id"); id.IsNonEmptyStr() {
			m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: id})
			p.keyed = true
		}
	}
	if choices.Kind() != decode.KindArray {
		m.Malformed("chat.completion.chunk", "choices is "+invariants.KindName(choices)+", want an array")
		return
	}
	it, first := choices.Elements(), true
	for c, ok := it.Next(); ok; c, ok = it.Next() {
		p.mapChoice(c, f.Index, m, first && pending, &marks)
		first = false
	}
}

// mapError: OpenAI reports a failure mid-stream as a data object with an
// error member (the SDKs raise on any truthy error) and closes the stream
// without [DONE], so the terminal is Final (no done-missing).
func (p *mapper) mapError(e decode.Raw, m *invariants.Mapping) {
	var code, msg decode.Raw
	switch e.Kind() {
	case decode.KindObject:
		code, msg = errorFields(e.Get("code"), e.Get("type"), e.Get("message"))
	case decode.KindString:
		msg = e
	}
	p.failed(code, msg, m)
}

// errorFields picks an error's code (its code, else its type) and message.
func errorFields(code, typ, msg decode.Raw) (decode.Raw, decode.Raw) {
	if k := code.Kind(); k != decode.KindString && k != decode.KindNumber {
		code = nil
		if typ.Kind() == decode.KindString {
			code = typ
		}
	}
	if msg.Kind() != decode.KindString {
		msg = nil
	}
	return code, msg
}

func (p *mapper) failed(code, msg decode.Raw, m *invariants.Mapping) {
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Code: code, Text: msg, Final: true})
	p.ended = true
}

// findChoice returns the state of choices[index], adding it when new (nil
// past maxChoices).
func (p *mapper) findChoice(index int64) *choice {
	for i := range p.choices {
		if p.choices[i].index == index {
			return &p.choices[i]
		}
	}
	if len(p.choices) >= maxChoices {
		return nil
	}
	p.choices = append(p.choices, choice{index: index, frame: -1, audioEnd: -1})
	return &p.choices[len(p.choices)-1]
}

// readFlavor settles the stream's flavor: the forced one, else the first
// a chunk's marks name (SetFlavor), from the chunk's own marks k;
// pending says the flavor is still open, for the first choice's marks
// (mapChoice, which reads the choice anyway) and then the model id's
// (recogniseModel): the chunk's marks, then its first choice's, then a
// model id's (the order FuzzMapperFlavorIsRecognise holds).
func (p *mapper) readFlavor(k *chunkMarks, m *invariants.Mapping) (pending bool) {
	if p.flavored {
		return false
	}
	if fl := m.ForcedFlavor(); fl != "" {
		p.flavor, p.flavored = fl, true
		return false
	}
	fl := recogniseChunk(k)
	if fl == "" {
		p.guessFlavor(guessChunk(k), m)
	}
	p.settleFlavor(fl, m)
	return !p.flavored
}

// guessFlavor: a mark other providers copy (hint, "" none) names no
// provider. The stream is openai-compatible until a mark names one (the
// flavor stays open), and the evidence is shown once as flavor-guess
// (info), never as the flavor.
func (p *mapper) guessFlavor(hint string, m *invariants.Mapping) {
	if hint == "" || p.flavored {
		return
	}
	if p.guess == "" {
		p.guess = hint
		m.Raise("flavor-guess", invariants.SevInfo, "the stream carries %s: that names no provider, read as %s (an unknown provider); --flavor NAME forces one", hint, flavorCompatible)
	}
	p.flavor = flavorCompatible
	m.SetFlavor(flavorCompatible)
}

// settleFlavor makes fl the stream's flavor ("" settles nothing).
func (p *mapper) settleFlavor(fl string, m *invariants.Mapping) {
	if fl != "" {
		p.flavor, p.flavored = fl, true
		m.SetFlavor(fl)
	}
}

// newCompletion: the id switched, another completion streams on (Groq's
// compound models). The clients fold it into the same choices, so a
// choice that had finished is open again: its content is no
// after-terminal and its next finish_reason no duplicate.
func (p *mapper) newCompletion() {
	for i := range p.choices {
		p.choices[i].finish, p.choices[i].frame = finishNone, -1
	}
}
