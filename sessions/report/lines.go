package report

import (
	"slices"

	"framescope/sessions"
)

// CaptureLines reads a capture (again, from its start) and finds the
// line of the capture file each stream offset is on: the line of the
// chunk that holds it where the format has lines (a JSONL capture's line,
// an NDJSON dump's), else (raw SSE) the stream's own line, counted from
// its line endings (LF, CRLF, CR). A HAR's body is not the file's lines:
// nil. Offsets past the stream are left out. The CI formats (GitHub,
// SARIF) point at a frame's line with it.
func CaptureLines(c sessions.Capture, offsets []int64) map[int64]int {
	if c.Meta().Kind == sessions.KindHAR {
		return nil
	}
	offs := slices.Clone(offsets)
	offs = slices.DeleteFunc(offs, func(o int64) bool { return o < 0 })
	slices.Sort(offs)
	offs = slices.Compact(offs)
	if len(offs) == 0 {
		return nil
	}
	out := make(map[int64]int, len(offs))
	var pos int64 // the stream offset of the chunk's first byte
	line, lastCR := 1, false
	for i := 0; i < len(offs); {
		ch, err := c.Next()
		if err != nil {
			break
		}
		data := ch.Data
		end := pos + int64(len(data))
		k := 0 // bytes of data counted
		for ; i < len(offs) && offs[i] < end; i++ {
			if ch.Line > 0 {
				out[offs[i]] = ch.Line
				continue
			}
			for at := int(offs[i] - pos); k < at; k++ {
				switch data[k] {
				case '\n':
					if !lastCR {
						line++
					}
					lastCR = false
				case '\r':
					line++
					lastCR = true
				default:
					lastCR = false
				}
			}
			out[offs[i]] = line
		}
		if ch.Line == 0 && i < len(offs) {
			for ; k < len(data); k++ {
				switch data[k] {
				case '\n':
					if !lastCR {
						line++
					}
					lastCR = false
				case '\r':
					line++
					lastCR = true
				default:
					lastCR = false
				}
			}
		}
		pos = end
	}
	return out
}

// Offsets lists the stream offsets of the listed alarms' frames, for
// CaptureLines.
func (r *Report) Offsets() []int64 {
	var out []int64
	_ = r.eachAlarm(func(_ int, a *ReportAlarm) error {
		if a.Offset >= 0 {
			out = append(out, a.Offset)
		}
		return nil
	})
	return out
}
