package sessiontest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// This file holds a test helper that writes large, valid PC3 v0.5 raw SSE
// captures (for the pipeline benchmarks and the bounded-memory test) and a
// test that keeps the generator honest: everything it writes must pass the
// checker without a single error or warning.

// GenStats describes a generated capture.
type GenStats struct {
	Bytes      int64 // bytes written
	Frames     int   // dispatched SSE events, [DONE] sentinels included
	Turns      int
	Keepalives int // `: keepalive` comment blocks (not frames)
	// Sizes of the typed frames' blocks on the wire (event: + data: lines
	// and the blank line); the [DONE] sentinels are not counted.
	MinFrame, MaxFrame int
	typedFrames        int
	typedBytes         int64
}

// AvgFrame is the mean size of a typed frame's block.
func (s GenStats) AvgFrame() float64 {
	if s.typedFrames == 0 {
		return 0
	}
	return float64(s.typedBytes) / float64(s.typedFrames)
}

// captureGen writes turns of a multi-turn stream. All randomness comes from
// one seeded PCG, so a (size, seed) pair always gives the same bytes.
type captureGen struct {
	w     *bufio.Writer
	rng   *rand.Rand
	buf   []byte // the frame being built (reused)
	ms    int64  // the current frame's timestamp, Unix milliseconds
	rid   []byte // the current turn's response_id
	turn  int
	stats GenStats
	err   error
}

var (
	genWords = strings.Fields(`the a an of to in for on with your you we our this that these
		offers offer points reward rewards card cards store stores near nearby week weekend today
		tomorrow coffee grocery fuel travel hotel flight dining cashback bonus double triple
		balance account statement limit payment due saved saving savings plan budget monthly
		here are some great options based recent purchases I found three matches best value
		expires soon activate now tap see details compare terms apply minimum spend eligible
		partner brands selected categories restaurant streaming subscription electronics
		café naïve déjà résumé — “quoted” 10% 2x 5x $25 €15 ✓ ★`)
	genStatusIDs = []struct{ id, msg string }{
		{"searching_offers", "Searching for offers..."},
		{"ranking_results", "Ranking the best matches for you..."},
		{"fetching_balance", "Checking your points balance..."},
		{"shop.fetching_catalog", "Looking through the partner catalog..."},
		{"travel.searching_flights", "Searching for flights..."},
		{"loading_history", "Reviewing your recent purchases..."},
	}
	genTools = []struct{ name, typ string }{
		{"search_offers", "mcp"},
		{"get_balance", "mcp"},
		{"list_transactions", "function"},
		{"render_offer_list", "function"},
		{"lookup_merchant", "mcp"},
	}
	genComponents = []struct{ typ, prefix, title string }{
		{"offer_list", "OFF", "title"},
		{"merchant_list", "MER", "name"},
		{"txn_list", "TXN", "label"},
	}
	genTitles = []string{"10% off", "2x points", "Free coffee", "$5 back", "Bonus 500 pts", "3x on dining", "Fuel saver"}
)

const genHex = "0123456789abcdef"

// WriteCapture writes turns until at least size bytes are written; the
// capture always ends after a complete turn (its [DONE] and blank line).
func WriteCapture(w io.Writer, size int64, seed uint64) (GenStats, error) {
	g := &captureGen{
		w:   bufio.NewWriterSize(w, 1<<20),
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		ms:  time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC).UnixMilli(),
		buf: make([]byte, 0, 1024),
	}
	g.stats.MinFrame = int(^uint(0) >> 1)
	for g.stats.Bytes < size && g.err == nil {
		g.writeTurn()
	}
	if g.err == nil {
		g.err = g.w.Flush()
	}
	return g.stats, g.err
}

// WriteCaptureFile writes a capture to path.
func WriteCaptureFile(path string, size int64, seed uint64) (GenStats, error) {
	f, err := os.Create(path)
	if err != nil {
		return GenStats{}, err
	}
	st, err := WriteCapture(f, size, seed)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return st, err
}

func (g *captureGen) writeTurn() {
	g.turn++
	g.stats.Turns++
	g.ms += 1000 + g.rng.Int64N(9000) // the user thinks between turns
	g.rid = append(append(g.rid[:0], "resp_"...), g.hex(48)...)

	g.begin("response_id")
	g.end()

	g.begin("episode")
	g.buf = append(g.buf, `,"episode_id":"ep_`...)
	g.buf = append(g.buf, g.hex(24)...)
	g.buf = append(g.buf, '"')
	g.end()

	g.begin("thinking")
	g.buf = append(g.buf, `,"content":`...)
	g.buf = g.appendText(g.buf, 3+g.rng.IntN(6))
	g.buf = append(g.buf, `,"role":"reasoning"`...)
	g.end()

	for n := 1 + g.rng.IntN(2); n > 0; n-- {
		st := genStatusIDs[g.rng.IntN(len(genStatusIDs))]
		g.begin("status")
		g.buf = append(g.buf, `,"data":{"event_id":"`...)
		g.buf = append(g.buf, st.id...)
		g.buf = append(g.buf, `","message":"`...)
		g.buf = append(g.buf, st.msg...)
		g.buf = append(g.buf, `"}`...)
		g.end()
	}

	tool := genTools[g.rng.IntN(len(genTools))]
	callID := "call_" + string(g.hex(24))
	for _, typ := range [...]string{"tool_call", "tool_completed"} {
		g.begin(typ)
		g.buf = append(g.buf, `,"tool_call":{"id":"`...)
		g.buf = append(g.buf, callID...)
		g.buf = append(g.buf, `","name":"`...)
		g.buf = append(g.buf, tool.name...)
		g.buf = append(g.buf, `","type":"`...)
		g.buf = append(g.buf, tool.typ...)
		g.buf = append(g.buf, `"}`...)
		g.end()
		g.ms += 50 + g.rng.Int64N(700) // the tool runs
	}

	comp := genComponents[g.rng.IntN(len(genComponents))]
	compID := fmt.Sprintf("%s-%d", strings.ReplaceAll(comp.typ, "_", "-"), g.turn)
	ids := make([]int, 2+g.rng.IntN(2))
	for i := range ids {
		ids[i] = 1000 + g.rng.IntN(9000)
	}
	for _, typ := range [...]string{"data_loading", "data_loaded"} {
		g.begin(typ)
		g.buf = append(g.buf, `,"data":{"id":"`...)
		g.buf = append(g.buf, compID...)
		g.buf = append(g.buf, `","type":"`...)
		g.buf = append(g.buf, comp.typ...)
		g.buf = append(g.buf, `","key":{"ids":[`...)
		for i, id := range ids {
			if i > 0 {
				g.buf = append(g.buf, ',')
			}
			g.buf = fmt.Appendf(g.buf, `{"id":"%s_%d"}`, comp.prefix, id)
		}
		g.buf = append(g.buf, `]}`...)
		if typ == "data_loaded" {
			g.buf = append(g.buf, `,"items":[`...)
			for i, id := range ids {
				if i > 0 {
					g.buf = append(g.buf, ',')
				}
				g.buf = fmt.Appendf(g.buf, `{"id":"%s_%d","%s":"%s"}`, comp.prefix, id, comp.title,
					genTitles[g.rng.IntN(len(genTitles))])
			}
			g.buf = append(g.buf, ']')
		}
		g.buf = append(g.buf, '}')
		g.end()
	}

	for n := 20 + g.rng.IntN(41); n > 0; n-- {
		g.begin("text")
		g.buf = append(g.buf, `,"chunk":`...)
		g.buf = g.appendText(g.buf, 1+g.rng.IntN(15))
		g.end()
	}

	in, out := 200+g.rng.Int64N(4000), 50+g.rng.Int64N(1500)
	g.begin("usage")
	g.buf = fmt.Appendf(g.buf, `,"input_tokens":%d,"output_tokens":%d,"total_tokens":%d,"reasoning_tokens":%d,"cached_tokens":%d`,
		in, out, in+out, g.rng.Int64N(out), g.rng.Int64N(in))
	g.end()

	g.begin("completed")
	g.end()

	g.buf = append(g.buf[:0], "data: [DONE]\n\n"...)
	g.flush(false)
}

// begin starts a typed frame: the event line and the envelope. The
// timestamp moves forward 1–40 ms; now and then a keepalive comment block
// goes out first.
func (g *captureGen) begin(typ string) {
	if g.rng.IntN(40) == 0 {
		g.buf = append(g.buf[:0], ": keepalive\n\n"...)
		g.stats.Keepalives++
		g.writeBuf()
	}
	g.ms += 1 + g.rng.Int64N(40)
	b := g.buf[:0]
	b = append(b, "event: "...)
	b = append(b, typ...)
	b = append(b, "\ndata: {\"event_type\":\""...)
	b = append(b, typ...)
	b = append(b, `","version":"0.5","timestamp":"`...)
	b = time.UnixMilli(g.ms).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, `","response_id":"`...)
	b = append(b, g.rid...)
	b = append(b, '"')
	g.buf = b
}

// end closes a typed frame and writes it.
func (g *captureGen) end() {
	g.buf = append(g.buf, "}\n\n"...)
	g.flush(true)
}

func (g *captureGen) flush(typed bool) {
	g.stats.Frames++
	if typed {
		n := len(g.buf)
		g.stats.MinFrame = min(g.stats.MinFrame, n)
		g.stats.MaxFrame = max(g.stats.MaxFrame, n)
		g.stats.typedFrames++
		g.stats.typedBytes += int64(n)
	}
	g.writeBuf()
}

func (g *captureGen) writeBuf() {
	if g.err != nil {
		return
	}
	n, err := g.w.Write(g.buf)
	g.stats.Bytes += int64(n)
	g.err = err
}

// hex returns n random hex digits (the slice is fresh).
func (g *captureGen) hex(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = genHex[g.rng.IntN(16)]
	}
	return b
}

// appendText appends a JSON string of about words words: plain prose with
// non-ASCII letters, now and then an escaped newline or quote.
func (g *captureGen) appendText(b []byte, words int) []byte {
	b = append(b, '"')
	if g.rng.IntN(4) == 0 {
		b = append(b, ' ') // chunks often start mid-sentence
	}
	for i := 0; i < words; i++ {
		if i > 0 {
			switch r := g.rng.IntN(30); {
			case r == 0:
				b = append(b, `\n`...)
			case r == 1:
				b = append(b, `, `...)
			case r == 2:
				b = append(b, `. `...)
			default:
				b = append(b, ' ')
			}
		}
		w := genWords[g.rng.IntN(len(genWords))]
		if g.rng.IntN(60) == 0 {
			b = append(b, `\"`...)
			b = append(b, w...)
			b = append(b, `\"`...)
			continue
		}
		b = append(b, w...)
	}
	return append(b, '"')
}
