package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"framescope/invariants"
)

// The timing faces of a turn (docs/check.md "timing", docs/timing.md):
// an object in the JSON report, a line in the text report, and the
// varint form the turn log spills.

// appendTimingJSON appends a turn's "timing" object. Durations are
// milliseconds; a figure the turn lacks (no content, one delta) is null.
func appendTimingJSON(b []byte, t *invariants.TurnTiming) []byte {
	ms := func(key string, d time.Duration, ok bool) {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":`...)
		if !ok {
			b = append(b, "null"...)
			return
		}
		b = strconv.AppendFloat(b, float64(d.Round(time.Microsecond))/float64(time.Millisecond), 'f', -1, 64)
	}
	num := func(key string, v float64, ok bool) {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":`...)
		if !ok {
			b = append(b, "null"...)
			return
		}
		b = strconv.AppendFloat(b, math.Round(v*1000)/1000, 'f', -1, 64)
	}
	origin := "turn"
	if t.FromResponse {
		origin = "response"
	}
	b = append(b, `{"origin":"`...)
	b = append(b, origin...)
	b = append(b, '"')
	gaps := t.Chunks > 1
	rated := gaps && t.ChunksPerSec > 0
	ms("time_to_first_byte_ms", t.FirstByte, t.HasFirstByte)
	ms("time_to_first_frame_ms", t.FirstFrame, true)
	ms("time_to_first_chunk_ms", t.FirstContent, t.HasContent)
	ms("duration_ms", t.Duration, true)
	b = append(b, `,"to_terminal":`...)
	b = strconv.AppendBool(b, t.HasTerminal)
	ms("time_per_output_chunk_ms", t.PerChunk, gaps)
	ms("gap_p50_ms", t.GapP50, gaps)
	ms("gap_p95_ms", t.GapP95, gaps)
	ms("gap_max_ms", t.GapMax, gaps)
	b = append(b, `,"gap_max_frames":`...)
	if gaps {
		b = fmt.Appendf(b, "[%d,%d]", t.GapMaxFrom, t.GapMaxTo)
	} else {
		b = append(b, "null"...)
	}
	ms("last_chunk_to_end_ms", t.Tail, t.HasContent)
	b = fmt.Appendf(b, `,"frames":%d,"reads":%d,"burst_frames":%d`, t.Frames, t.Reads, t.Burst)
	ms("burst_ms", t.BurstSpan, true)
	b = fmt.Appendf(b, `,"chunks":%d,"chars":%d`, t.Chunks, t.Chars)
	num("chunks_per_s", t.ChunksPerSec, rated)
	num("chars_per_s", t.CharsPerSec, rated)
	b = fmt.Appendf(b, `,"stalls":%d`, t.Stalls)
	ms("stall_ms", t.StallTotal, true)
	// Usage (added keys): the output tokens the dialect reported
	// (gen_ai.usage.output_tokens), per second of the content span, and
	// the server's own rate where it reports its generation time.
	b = append(b, `,"output_tokens":`...)
	if t.HasUsage {
		b = strconv.AppendInt(b, t.OutputTokens, 10)
	} else {
		b = append(b, "null"...)
	}
	num("tokens_per_s", t.TokensPerSec, t.HasUsage && t.ContentSpan > 0)
	num("server_tokens_per_s", t.ServerTokensPerSec, t.HasUsage && t.HasGenTime)
	return append(b, '}')
}

// timingLine is a turn's timing in one line of the text report.
func timingLine(t *invariants.TurnTiming) string {
	d := invariants.FormatDur
	var p []string
	if t.HasFirstByte {
		p = append(p, "first byte "+d(t.FirstByte))
	}
	if t.FromResponse {
		p = append(p, "first frame "+d(t.FirstFrame))
	}
	if t.HasContent {
		p = append(p, "first content "+d(t.FirstContent))
	} else {
		p = append(p, "no content")
	}
	end := "to the terminal"
	if !t.HasTerminal {
		end = "to the last frame"
	}
	p = append(p, fmt.Sprintf("%s %s", d(t.Duration), end))
	if t.Chunks > 1 {
		rate := ""
		if t.ChunksPerSec > 0 {
			rate = fmt.Sprintf(" at %.1f/s, %.0f chars/s", t.ChunksPerSec, t.CharsPerSec)
		}
		if t.HasUsage && t.ContentSpan > 0 {
			rate += fmt.Sprintf(", %.1f tokens/s", t.TokensPerSec)
		}
		p = append(p, fmt.Sprintf("%d deltas%s", t.Chunks, rate))
		p = append(p, fmt.Sprintf("gaps p50 %s p95 %s max %s (frames %d–%d)", d(t.GapP50), d(t.GapP95), d(t.GapMax), t.GapMaxFrom, t.GapMaxTo))
	} else {
		p = append(p, plural(t.Chunks, "delta"))
	}
	if t.Stalls > 0 {
		p = append(p, fmt.Sprintf("%s (%s)", plural(t.Stalls, "stall"), d(t.StallTotal)))
	}
	if t.HasContent {
		p = append(p, "tail "+d(t.Tail))
	}
	if t.HasUsage {
		u := plural(int(min(t.OutputTokens, 1<<31)), "output token")
		if t.HasGenTime {
			u += fmt.Sprintf(" (server %.1f/s)", t.ServerTokensPerSec)
		}
		p = append(p, u)
	}
	p = append(p, fmt.Sprintf("%d frames in %s", t.Frames, plural(t.Reads, "read")))
	return "  timing  " + strings.Join(p, " · ")
}

// Timed reports whether any turn of the report has timing figures (the
// capture had arrival times and the dialect's checker feeds the timing).
func (r *Report) Timed() bool {
	timed := false
	_ = r.eachTurn(func(_ int, t *invariants.Turn) error {
		if t.Timing.Timed {
			timed = true
			return errStopTurns
		}
		return nil
	})
	return timed
}

var errStopTurns = errors.New("stop")

// Timing flags in the turn log.
const (
	tmTimed = 1 << iota
	tmFromResponse
	tmFirstByte
	tmContent
	tmTerminal
	tmUsage
	tmGenTime
)

// appendTimingBin appends a turn's timing to the turn log's record.
func appendTimingBin(b []byte, t *invariants.TurnTiming) []byte {
	var fl byte
	for i, on := range [...]bool{t.Timed, t.FromResponse, t.HasFirstByte, t.HasContent, t.HasTerminal, t.HasUsage, t.HasGenTime} {
		if on {
			fl |= 1 << i
		}
	}
	b = append(b, fl)
	if !t.Timed {
		return b
	}
	for _, v := range timingVals(t) {
		b = binary.AppendVarint(b, v)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.ChunksPerSec))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.CharsPerSec))
	b = binary.AppendVarint(b, int64(t.ContentSpan))
	if t.HasUsage {
		b = binary.AppendVarint(b, t.OutputTokens)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.TokensPerSec))
	}
	if t.HasGenTime {
		b = binary.AppendVarint(b, int64(t.GenTime))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.ServerTokensPerSec))
	}
	return b
}

// readTimingBin reads what appendTimingBin wrote.
func readTimingBin(r *bufio.Reader, t *invariants.TurnTiming) error {
	fl, err := r.ReadByte()
	if err != nil {
		return err
	}
	t.Timed, t.FromResponse, t.HasFirstByte = fl&tmTimed != 0, fl&tmFromResponse != 0, fl&tmFirstByte != 0
	t.HasContent, t.HasTerminal = fl&tmContent != 0, fl&tmTerminal != 0
	t.HasUsage, t.HasGenTime = fl&tmUsage != 0, fl&tmGenTime != 0
	if !t.Timed {
		return nil
	}
	var v [timingNVals]int64
	for i := range v {
		if v[i], err = binary.ReadVarint(r); err != nil {
			return err
		}
	}
	setTimingVals(t, &v)
	var f [16]byte
	if _, err := io.ReadFull(r, f[:]); err != nil {
		return err
	}
	t.ChunksPerSec = math.Float64frombits(binary.LittleEndian.Uint64(f[:8]))
	t.CharsPerSec = math.Float64frombits(binary.LittleEndian.Uint64(f[8:]))
	span, err := binary.ReadVarint(r)
	if err != nil {
		return err
	}
	t.ContentSpan = time.Duration(span)
	if t.HasUsage {
		if t.OutputTokens, err = binary.ReadVarint(r); err != nil {
			return err
		}
		if _, err := io.ReadFull(r, f[:8]); err != nil {
			return err
		}
		t.TokensPerSec = math.Float64frombits(binary.LittleEndian.Uint64(f[:8]))
	}
	if t.HasGenTime {
		g, err := binary.ReadVarint(r)
		if err != nil {
			return err
		}
		t.GenTime = time.Duration(g)
		if _, err := io.ReadFull(r, f[:8]); err != nil {
			return err
		}
		t.ServerTokensPerSec = math.Float64frombits(binary.LittleEndian.Uint64(f[:8]))
	}
	return nil
}

// timingVals are the integer fields of a timing, in the log's order;
// setTimingVals sets them back.
func timingVals(t *invariants.TurnTiming) [timingNVals]int64 {
	return [timingNVals]int64{int64(t.FirstByte), int64(t.FirstFrame), int64(t.FirstContent), int64(t.Duration),
		int64(t.Tail), int64(t.Frames), int64(t.Reads), int64(t.Burst), int64(t.BurstSpan), int64(t.Chunks),
		t.Chars, int64(t.PerChunk), int64(t.GapP50), int64(t.GapP95), int64(t.GapMax),
		int64(t.GapMaxFrom), int64(t.GapMaxTo), int64(t.Stalls), int64(t.StallTotal)}
}

const timingNVals = 19

func setTimingVals(t *invariants.TurnTiming, v *[timingNVals]int64) {
	d := func(i int) time.Duration { return time.Duration(v[i]) }
	t.FirstByte, t.FirstFrame, t.FirstContent, t.Duration, t.Tail = d(0), d(1), d(2), d(3), d(4)
	t.Frames, t.Reads, t.Burst, t.BurstSpan, t.Chunks = int(v[5]), int(v[6]), int(v[7]), d(8), int(v[9])
	t.Chars, t.PerChunk, t.GapP50, t.GapP95, t.GapMax = v[10], d(11), d(12), d(13), d(14)
	t.GapMaxFrom, t.GapMaxTo, t.Stalls, t.StallTotal = int(v[15]), int(v[16]), int(v[17]), d(18)
}
