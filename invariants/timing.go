package invariants

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"time"

	"framescope/decode"
)

// Timing measures one turn's delivery from its frames' arrival times
// (docs/timing.md). It is fed frame by frame, as they arrive, so a viewer
// can ask for its figures "as of" any frame (Summary), and the checker
// keeps one per open turn. Times are durations since the response
// started (decode.Frame.Arrival). The zero value is ready to use.
type Timing struct {
	// Origin is what the figures count from: the response start for the
	// stream's first turn, the turn's first frame for a later one.
	origin       time.Duration
	fromResponse bool

	frames     int
	firstFrame time.Duration
	lastFrame  time.Duration
	// reads counts distinct arrival instants: frames sharing one arrival
	// came in one read (sessions.Chunk).
	reads int

	// burst is the current run of frames each within BurstWindow of the
	// one before; maxBurst the longest such run (frames), maxBurstSpan
	// its time span.
	burst, maxBurst  int
	burstStart       time.Duration
	maxBurstSpan     time.Duration
	contents         int
	chars            int64
	firstContent     time.Duration
	lastContent      time.Duration
	lastContentFrame int
	gapMax           time.Duration
	gapMaxFrom       int
	gapMaxTo         int
	stalls           int
	stallTotal       time.Duration
	gaps             gapSample
	terminal         time.Duration
	hasTerminal      bool
	firstByte        time.Duration
	hasFirstByte     bool
	stallBound       time.Duration
	// The output tokens the dialect reported (timing_usage.go), and the
	// server's own time generating them.
	outTokens  int64
	hasUsage   bool
	genTime    time.Duration
	hasGenTime bool
}

// BurstWindow is how close two frames' arrivals must be to count as one
// burst: closer than any paced token stream delivers (a fast model emits
// a token every 5–20 ms), far above a read's scheduling jitter.
const BurstWindow = 2 * time.Millisecond

// DefaultStall is the content gap that counts as a stall (check --stall).
const DefaultStall = 5 * time.Second

// Start begins the turn's timing. fromResponse: the figures count from
// the response start (origin 0), else from the turn's first frame.
func (t *Timing) Start(fromResponse bool, stall time.Duration) {
	t.fromResponse = fromResponse
	t.stallBound = stall
}

// FirstByte records when the response's first bytes arrived (a comment
// or any block before the first frame).
func (t *Timing) FirstByte(at time.Duration) {
	if !t.hasFirstByte {
		t.firstByte, t.hasFirstByte = at, true
	}
}

// Frame records one frame of the turn: index, arrival, and its content
// (text, reasoning or tool moves; chars their delta's characters).
// It returns the content gap this frame closed (0 when none) and the
// frame that opened it.
func (t *Timing) Frame(index int, at time.Duration, content bool, chars int) (gap time.Duration, from int) {
	if t.frames == 0 {
		t.firstFrame = at
		if !t.fromResponse {
			t.origin = at
		}
		if !t.hasFirstByte {
			t.firstByte, t.hasFirstByte = at, true
		}
		t.reads = 1
		t.burst, t.burstStart, t.maxBurst = 1, at, 1
	} else {
		if at != t.lastFrame {
			t.reads++
		}
		if at-t.lastFrame <= BurstWindow {
			t.burst++
		} else {
			t.burst, t.burstStart = 1, at
		}
		if t.burst > t.maxBurst {
			t.maxBurst, t.maxBurstSpan = t.burst, at-t.burstStart
		}
	}
	t.frames++
	t.lastFrame = at
	if !content {
		return 0, -1
	}
	from = -1
	if t.contents == 0 {
		t.firstContent = at
	} else {
		gap, from = at-t.lastContent, t.lastContentFrame
		t.gaps.add(gap)
		if gap > t.gapMax || t.contents == 1 {
			t.gapMax, t.gapMaxFrom, t.gapMaxTo = gap, t.lastContentFrame, index
		}
		if t.stallBound > 0 && gap > t.stallBound {
			t.stalls++
			t.stallTotal += gap
		}
	}
	t.contents++
	t.chars += int64(chars)
	t.lastContent, t.lastContentFrame = at, index
	return gap, from
}

// Resume records a frame that ends a wait the turn owed to something else
// than delivery: a tool's result (the server ran the tool, the client
// showed it running). The next content gap counts from it, so a tool's
// run is neither a content gap nor a stall. Call it after Frame.
func (t *Timing) Resume(index int, at time.Duration) {
	if t.contents > 0 {
		t.lastContent, t.lastContentFrame = at, index
	}
}

// ResumesContent reports whether a frame's moves end a wait (a tool call
// closes: its result came), for Timing.Resume.
func ResumesContent(moves []Move) bool {
	for i := range moves {
		if moves[i].Kind == MoveToolClose {
			return true
		}
	}
	return false
}

// Terminal records the arrival of the turn's terminal frame.
func (t *Timing) Terminal(at time.Duration) {
	if !t.hasTerminal {
		t.terminal, t.hasTerminal = at, true
	}
}

// Reuse hands the timing a spare gap buffer (from a settled turn's
// Release): a stream of many turns then stops allocating one per turn.
func (t *Timing) Reuse(buf []time.Duration) { t.gaps.exact = buf[:0] }

// Release takes the gap buffer back once the figures are final (nil
// when none or it outgrew into a histogram); the timing keeps its last
// Summary's figures no more.
func (t *Timing) Release() []time.Duration {
	b := t.gaps.exact
	t.gaps.exact = nil
	return b
}

// Timed reports whether any frame with an arrival time was recorded.
func (t *Timing) Timed() bool { return t.frames > 0 }

// Summary is the turn's figures as of the frames recorded so far.
func (t *Timing) Summary() TurnTiming {
	if t.frames == 0 {
		return TurnTiming{}
	}
	s := TurnTiming{
		Timed:        true,
		FromResponse: t.fromResponse,
		FirstFrame:   t.firstFrame - t.origin,
		Frames:       t.frames,
		Reads:        t.reads,
		Burst:        t.maxBurst,
		BurstSpan:    t.maxBurstSpan,
		Chunks:       t.contents,
		Chars:        t.chars,
		Stalls:       t.stalls,
		StallTotal:   t.stallTotal,
	}
	if t.fromResponse {
		s.FirstByte, s.HasFirstByte = t.firstByte, true
	}
	end := t.lastFrame
	if t.hasTerminal {
		end, s.HasTerminal = t.terminal, true
	}
	s.Duration = end - t.origin
	if t.contents > 0 {
		s.HasContent = true
		s.FirstContent = t.firstContent - t.origin
		s.Tail = end - t.lastContent
	}
	if t.contents > 1 {
		s.GapP50, s.GapP95 = t.gaps.quantile(0.50), t.gaps.quantile(0.95)
		s.GapMax, s.GapMaxFrom, s.GapMaxTo = t.gapMax, t.gapMaxFrom, t.gapMaxTo
		span := t.lastContent - t.firstContent
		s.ContentSpan = span
		s.PerChunk = span / time.Duration(t.contents-1)
		if span > 0 {
			sec := span.Seconds()
			s.ChunksPerSec = float64(t.contents-1) / sec
			s.CharsPerSec = float64(t.chars) / sec
		}
	}
	t.usageInto(&s)
	return s
}

// TurnTiming is a turn's delivery figures (the JSON report's turns[].timing,
// docs/check.md). Names follow the OpenTelemetry GenAI semantic
// conventions where one exists: time to first chunk, time per output chunk.
// Durations count from the origin (FromResponse: the response start, else
// the turn's first frame).
type TurnTiming struct {
	Timed        bool
	FromResponse bool
	HasFirstByte bool
	HasContent   bool
	HasTerminal  bool
	FirstByte    time.Duration // the response's first bytes
	FirstFrame   time.Duration // the turn's first frame
	FirstContent time.Duration // the first text, reasoning or tool move: time to first chunk
	Duration     time.Duration // to the terminal (or the last frame)
	Tail         time.Duration // last content to the terminal (or the last frame)
	Frames       int
	Reads        int           // distinct arrival instants among the frames
	Burst        int           // the most frames arriving back to back (within BurstWindow)
	BurstSpan    time.Duration // that burst's span
	Chunks       int           // content frames
	Chars        int64         // characters of content deltas
	PerChunk     time.Duration // mean content gap: time per output chunk
	GapP50       time.Duration
	GapP95       time.Duration
	GapMax       time.Duration
	GapMaxFrom   int // the frames around the longest content gap
	GapMaxTo     int
	ChunksPerSec float64
	CharsPerSec  float64
	Stalls       int           // content gaps over the stall bound
	StallTotal   time.Duration // their sum
	// ContentSpan is the time from the first content to the last: what
	// the rates divide by (0 with fewer than two content frames).
	ContentSpan time.Duration
	// OutputTokens is the turn's output tokens as the dialect reports
	// them (HasUsage; OpenTelemetry GenAI gen_ai.usage.output_tokens);
	// TokensPerSec is OutputTokens / ContentSpan (0 when either is
	// unknown). GenTime is the server's own generation time (HasGenTime:
	// Ollama's eval_duration) and ServerTokensPerSec OutputTokens / GenTime.
	HasUsage           bool
	OutputTokens       int64
	TokensPerSec       float64
	HasGenTime         bool
	GenTime            time.Duration
	ServerTokensPerSec float64
}

// ContentChars is the characters of a content delta's JSON string r (a
// checker that classifies its frames itself, PC3's, counts with it): its
// bytes less UTF-8 continuation bytes and escapes' backslashes. It runs on
// every delta, so it counts eight bytes at a time.
func ContentChars(r decode.Raw) int {
	if len(r) < 2 || r[0] != '"' {
		return 0
	}
	s := r[1 : len(r)-1]
	n, i := len(s), 0
	for ; i+8 <= len(s); i += 8 {
		n -= notChars(binary.LittleEndian.Uint64(s[i:]))
	}
	if rem := len(s) - i; rem > 0 {
		// The last bytes as one word, zeros (no character and not one
		// of the two) where they end.
		var w uint64
		if len(s) >= 8 {
			w = binary.LittleEndian.Uint64(s[len(s)-8:]) >> (8 * (8 - rem))
		} else {
			var b [8]byte
			copy(b[:], s)
			w = binary.LittleEndian.Uint64(b[:])
		}
		n -= notChars(w)
	}
	return n
}

// notChars counts the bytes of w that are no character of their own: UTF-8
// continuation bytes (10xxxxxx) and backslashes. Each test leaves a
// byte's top bit set exactly where it holds; no carry crosses bytes.
func notChars(w uint64) int {
	const lo7, hi = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	cont := w &^ (w << 1) & hi  // bit 7 set, bit 6 clear
	x := w ^ 0x5C5C5C5C5C5C5C5C // '\\' bytes become zero
	bs := ^((x&lo7 + lo7) | x | lo7)
	return bits.OnesCount64(cont) + bits.OnesCount64(bs)
}

// isContent reports whether a move carries content a user sees (text,
// reasoning, a tool call): never a control frame, ping or heartbeat, and
// never a delta with nothing in it (an empty string opening a message is
// the "first token" a control frame fakes).
func isContent(mv *Move) bool {
	switch mv.Kind {
	case MoveToolOpen:
		return true
	case MoveText, MoveReasoning, MoveToolArgs:
		return len(mv.Text) > 2 && mv.Text.Kind() != decode.KindNull // not absent, null, "", {} or []
	}
	return false
}

// AddChars adds the characters of the content frame Frame just recorded,
// for a checker that counts them where it already reads the frame's text
// (PC3's payload check: the text is in cache there, not a second time).
func (t *Timing) AddChars(chars int) { t.chars += int64(chars) }

// ContentOf sums a frame's content moves: whether it has any, and their
// characters.
func ContentOf(moves []Move) (content bool, chars int) { return contentOf(moves, false) }

// contentOf is ContentOf for a frame known to be ASCII or not
// (decode.Frame.ASCII): an ASCII delta's characters are its bytes less
// its escapes' backslashes, found with one IndexByte when there are none.
func contentOf(moves []Move, ascii bool) (content bool, chars int) {
	for i := range moves {
		mv := &moves[i]
		if !isContent(mv) {
			continue
		}
		content = true
		if !ascii || len(mv.Text) < 2 || mv.Text[0] != '"' {
			chars += ContentChars(mv.Text)
			continue
		}
		s := mv.Text[1 : len(mv.Text)-1]
		chars += len(s)
		if bytes.IndexByte(s, '\\') >= 0 {
			chars -= bytes.Count(s, []byte{'\\'})
		}
	}
	return content, chars
}

// gapSample holds a turn's content gaps for their quantiles: exactly up
// to exactGaps of them, then in a log histogram (~3% wide buckets), so a
// turn of a million deltas costs a few KB.
type gapSample struct {
	exact []time.Duration
	hist  *[histBuckets]uint32
	n     int
}

const (
	exactGaps = 2048
	// The histogram is log-linear (as HDR histograms are): bucket 0 holds
	// gaps under histFloor (~1 µs); above it, each doubling splits into
	// histSub equal buckets (at most 1/32, ~3%, wide), up to 2^50 ns
	// (13 days), where the last bucket takes the rest. A bucket is a
	// bit length and the next five bits: no logarithm per gap.
	histSubBits  = 5
	histSub      = 1 << histSubBits
	histFloorLog = 10 // 1,024 ns
	histFloor    = 1 << histFloorLog
	histBuckets  = 1 + 40*histSub
)

func (g *gapSample) add(d time.Duration) {
	g.n++
	if g.hist == nil {
		if len(g.exact) < exactGaps {
			g.exact = append(g.exact, d)
			return
		}
		g.hist = new([histBuckets]uint32)
		for _, x := range g.exact {
			g.hist[histBucket(x)]++
		}
		g.exact = nil
	}
	g.hist[histBucket(d)]++
}

// histBucket is the bucket of gap d.
func histBucket(d time.Duration) int {
	if d < histFloor {
		return 0
	}
	v := uint64(d)
	e := bits.Len64(v) - 1 // v is in [2^e, 2^(e+1))
	sub := int(v>>(e-histSubBits)) & (histSub - 1)
	return min(1+(e-histFloorLog)*histSub+sub, histBuckets-1)
}

// histValue is the middle of bucket b: its gaps are within half a
// bucket's width (~1.6%) of it.
func histValue(b int) time.Duration {
	if b == 0 {
		return histFloor / 2
	}
	e, sub := (b-1)/histSub+histFloorLog, (b-1)%histSub
	lo := uint64(1)<<e + uint64(sub)<<(e-histSubBits)
	return time.Duration(lo + uint64(1)<<(e-histSubBits)/2)
}

// quantile is the q-quantile of the gaps (nearest rank).
func (g *gapSample) quantile(q float64) time.Duration {
	if g.n == 0 {
		return 0
	}
	rank := int(math.Ceil(q*float64(g.n))) - 1
	rank = max(0, min(rank, g.n-1))
	if g.hist == nil {
		// Sorted in place: the order of gaps does not matter, and a
		// sorted prefix sorts fast when asked again as of a later frame.
		slices.Sort(g.exact)
		return g.exact[rank]
	}
	seen := 0
	for b, c := range g.hist {
		seen += int(c)
		if seen > rank {
			return histValue(b)
		}
	}
	return histValue(histBuckets - 1)
}
