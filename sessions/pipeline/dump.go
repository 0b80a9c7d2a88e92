package pipeline

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// Dump writes a capture's decoded frames, one per line: NDJSON records
// (which `open`/`check` read back) or aligned text that also shows comments,
// data-less blocks and truncated tails. Nothing from the input reaches the
// output unescaped.
func Dump(c sessions.Capture, w io.Writer, ndjson bool, dialectName string) (*Result, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	res, err := Run(c, invariants.Options{Dialect: dialectName}, Handler{
		OnDialect: func(d invariants.Dialect) {
			// The text form says first how it reads the frames (their
			// labels are the dialect's event names).
			if !ndjson {
				how := "detected"
				if dialectName != "" {
					how = "forced"
				}
				fmt.Fprintf(bw, "# dialect %s (%s)\n", d.Name(), how)
			}
		},
		OnItem: func(it *Item) {
			line = line[:0]
			if ndjson {
				switch {
				case it.Frame != nil:
					line = appendDumpRecord(line, it.Frame)
				case it.Event.Truncated:
					line = appendTruncatedRecord(line, it)
				case it.Event.HasID || it.Event.HasRetry:
					line = appendBlockRecord(line, it) // it changes the last event ID or the retry delay
				default:
					return // comments and other data-less blocks: no frame for a client
				}
			} else {
				line = AppendItemText(line, it)
			}
			bw.Write(line)
		},
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return res, err
}

func appendDumpRecord(b []byte, f *decode.Frame) []byte {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(f.Index), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, f.Offset, 10)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, f.Size, 10)
	b = appendEventFields(b, &f.Event, f.Arrival, f.HasArrival)
	b = append(b, `,"data":`...)
	b = decode.AppendJSONString(b, string(f.Data))
	if !utf8.Valid(f.Data) {
		// JSON strings cannot carry invalid UTF-8: keep the exact bytes.
		b = append(b, `,"data_b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, f.Data)
		b = append(b, '"')
	}
	if f.Problem != decode.ProblemNone {
		b = append(b, `,"problem":`...)
		b = decode.AppendJSONString(b, f.Problem.String()+": "+f.ProblemDetail())
	}
	return append(b, "}\n"...)
}

// appendBlockRecord writes a data-less block that carries an id or a retry
// field: not a frame (no index, no data), but the stream's last event ID
// and reconnection delay change there, and the NDJSON reader rebuilds it:
//
//	{"block":true,"offset":N,"size":N,"arrival":S,"event":null,"id":"2","retry":500}
func appendBlockRecord(b []byte, it *Item) []byte {
	ev := it.Event
	b = append(b, `{"block":true,"offset":`...)
	b = strconv.AppendInt(b, ev.Offset, 10)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, ev.Size, 10)
	b = appendEventFields(b, ev, it.Arrival, it.HasArrival)
	return append(b, "}\n"...)
}

// appendTruncatedRecord writes the tail the stream ended in (an event
// without its blank line) as a record that the NDJSON reader turns back
// into those bytes at the end of the stream, so that `check` on the dump
// reports the lost event (sse-truncated) as it does on the capture:
//
//	{"truncated":true,"offset":N,"size":N,"arrival":S,"raw":"data: {\"a\""}
//
// "raw" is the tail as received (plus "raw_b64" with the exact bytes when
// they are not UTF-8); an oversized tail was not kept: "raw" is null and
// "oversized" true.
func appendTruncatedRecord(b []byte, it *Item) []byte {
	ev := it.Event
	b = append(b, `{"truncated":true,"offset":`...)
	b = strconv.AppendInt(b, ev.Offset, 10)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, ev.Size, 10)
	b = append(b, `,"arrival":`...)
	if it.HasArrival {
		b = appendSeconds(b, it.Arrival)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"raw":`...)
	switch {
	case ev.Oversized || ev.Raw == nil:
		b = append(b, `null,"oversized":true`...)
	default:
		b = decode.AppendJSONString(b, string(ev.Raw))
		if !utf8.Valid(ev.Raw) {
			b = append(b, `,"raw_b64":"`...)
			b = base64.StdEncoding.AppendEncode(b, ev.Raw)
			b = append(b, '"')
		}
	}
	return append(b, "}\n"...)
}

// AppendItemText appends the one-line text form of an item (dump's text
// format; also the live view of connect), every input string sanitized.
func AppendItemText(b []byte, it *Item) []byte {
	ev := it.Event
	arrival := "       -"
	if it.HasArrival {
		arrival = fmt.Sprintf("%8s", "+"+fmtSeconds(it.Arrival))
	}
	for _, cm := range ev.Comments {
		b = fmt.Appendf(b, "%6s %s  :%s\n", "", arrival, decode.SanitizeBytes(cm))
	}
	switch {
	case ev.Truncated:
		b = fmt.Appendf(b, "%6s %s  !! truncated: the input ended inside an event at byte %d (%d bytes, no blank line); not dispatched\n", "!", arrival, ev.Offset, ev.Size)
		if len(ev.Raw) > 0 {
			b = fmt.Appendf(b, "%6s %s     %s\n", "", "        ", sessions.Excerpt(ev.Raw, 200))
		}
		return b
	case it.Frame == nil:
		if ev.HasID || ev.HasRetry || ev.HasType || ev.Unknown > 0 {
			extra := blockFields(ev)
			if ev.HasType {
				extra = " event=" + decode.Sanitize(ev.Type) + extra
			}
			if ev.Unknown > 0 {
				extra += fmt.Sprintf(" (%d unknown field lines)", ev.Unknown)
			}
			b = fmt.Appendf(b, "%6s %s  (block without data: not dispatched)%s\n", "-", arrival, extra)
		}
		return b
	}
	f := it.Frame
	// The label is the dialect's own name of the event (its JSON type or
	// kind, else the SSE event: field); an SSE event: that says something
	// else is shown beside it.
	event, fields := "-", blockFields(ev)
	if it.Dialect != nil {
		if l := it.Dialect.Label(f); l != "" {
			event = decode.Sanitize(l)
		}
	}
	if f.HasType {
		if event == "-" {
			event = decode.Sanitize(f.Event.Type)
			if event == "" {
				event = `""`
			}
		} else if f.Event.Type != event {
			fields = " event=" + decode.Sanitize(f.Event.Type) + fields
		}
	}
	if it.From == sessions.FromClient {
		fields += " from=client" // a two-way transport's client frame
	}
	b = fmt.Appendf(b, "%6d %s  %-16s%s  ", f.Index, arrival, event, fields)
	if f.Oversized {
		return fmt.Appendf(b, "<oversized event: %d bytes not kept>\n", f.Size)
	}
	if sm, ok := it.Dialect.(invariants.Summarizer); ok {
		if s := sm.Summary(f); s != "" {
			b = decode.AppendSanitized(b, s) // audio: its size, never its bytes
			return append(b, '\n')
		}
	}
	b = decode.AppendSanitized(b, string(f.Data))
	return append(b, '\n')
}

func blockFields(ev *decode.Event) string {
	s := ""
	if ev.HasID {
		s += " id=" + decode.Sanitize(ev.ID)
	}
	if ev.HasRetry {
		s += " retry=" + strconv.FormatInt(ev.Retry, 10)
	}
	return s
}

func fmtSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) + "s"
}

// appendSeconds writes d in seconds as an exact decimal (no float noise:
// 2.5043, not 2.5042999999999997).
func appendSeconds(b []byte, d time.Duration) []byte {
	if d < 0 {
		b = append(b, '-')
		d = -d
	}
	b = strconv.AppendInt(b, int64(d/time.Second), 10)
	frac := int64(d % time.Second)
	if frac == 0 {
		return b
	}
	digits := []byte(strconv.FormatInt(frac+1e9, 10)[1:])
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	b = append(b, '.')
	return append(b, digits...)
}

// appendEventFields writes what frame and block records share: arrival,
// the SSE event, id and retry fields, and the comments before the event.
func appendEventFields(b []byte, ev *decode.Event, arrival time.Duration, hasArrival bool) []byte {
	b = append(b, `,"arrival":`...)
	if hasArrival {
		b = appendSeconds(b, arrival)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"event":`...)
	if ev.HasType {
		b = decode.AppendJSONString(b, ev.Type)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"id":`...)
	if ev.HasID {
		b = decode.AppendJSONString(b, ev.ID)
	} else {
		b = append(b, "null"...)
	}
	if ev.HasRetry {
		b = append(b, `,"retry":`...)
		b = strconv.AppendInt(b, ev.Retry, 10)
	}
	if len(ev.Comments) > 0 {
		b = append(b, `,"comments":[`...)
		for i, cm := range ev.Comments {
			if i > 0 {
				b = append(b, ',')
			}
			b = decode.AppendJSONString(b, string(cm))
		}
		b = append(b, ']')
	}
	return b
}
