package store

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// rowRec is a row as the store keeps it: 48 bytes of facts, no pointers
// (the GC never scans the row chunks). Only the newest chunk keeps rows in
// this form; full chunks are frozen into a few bytes a row (rows_pack.go). Measured at 1,000,000 frames, the
// Row struct (strings, slices, int fields: 136 bytes) cost 137 MB; rowRec
// costs 48 MB. The rare parts live in side tables: a non-frame row's
// summary in Store.summaries (typ is its index), a row's alarms in
// Store.rowAlarms. Row is the readable form, built on demand (Store.Row).
type rowRec struct {
	off   int64
	size  int64
	at    time.Duration
	frame int32
	turn  int32
	typ   uint32 // frames: index into types; other rows: into summaries
	kind  RowKind
	term  invariants.Terminality
	prob  decode.Problem
	flags rowFlags // immutable once appended
	// sev is the only field that changes after append (an alarm raised
	// later): the index of MaxSev in sevNames, with sevAlarmed set once the
	// row has alarms. Kept apart from flags: search reads flags off the
	// bubbletea goroutine while alarms are added.
	sev uint8
}

type rowFlags uint8

const (
	flagRaw rowFlags = 1 << iota // the block's bytes can be read back
	flagHasAt
	flagDone
	flagDecoded
	flagInvalidUTF8
	flagOversized
	flagFromClient // a two-way transport's client frame
)

const sevAlarmed = 0x80

// sevNames interns the severities rows can carry ("" none).
var sevNames = []invariants.Severity{"", invariants.SevInfo, invariants.SevWarn, invariants.SevError}

func sevIndex(s invariants.Severity) uint8 {
	for i, n := range sevNames {
		if n == s {
			return uint8(i)
		}
	}
	return 0 // an unknown severity ranks below every known one
}

func (f rowFlags) has(b rowFlags) bool { return f&b != 0 }

// pack makes the stored form of r (typ is set by the caller).
func pack(r *Row) rowRec {
	var f rowFlags
	for _, b := range [...]struct {
		on   bool
		flag rowFlags
	}{{r.HasRaw, flagRaw}, {r.HasAt, flagHasAt}, {r.Done, flagDone}, {r.Decoded, flagDecoded},
		{r.InvalidUTF8, flagInvalidUTF8}, {r.Oversized, flagOversized}, {r.FromClient, flagFromClient}} {
		if b.on {
			f |= b.flag
		}
	}
	return rowRec{off: r.Offset, size: r.Size, at: r.At, frame: int32(r.Frame), turn: int32(r.Turn),
		kind: r.Kind, term: r.Terminal, prob: r.Problem, flags: f, sev: sevIndex(r.MaxSev)}
}

// rowTables are the append-only tables a rowRec points into; a copy of
// the slice headers is safe to read off the bubbletea goroutine.
type rowTables struct {
	types     []string // interned event types
	summaries []string // non-frame rows' summaries
}

// unpack fills the immutable fields of the readable row (not Alarms and
// MaxSev).
func (t *rowTables) unpack(rc *rowRec, r *Row) {
	*r = Row{Offset: rc.off, Size: rc.size, At: rc.at, Frame: int(rc.frame), Turn: int(rc.turn),
		Kind: rc.kind, Terminal: rc.term, Problem: rc.prob,
		HasRaw: rc.flags.has(flagRaw), HasAt: rc.flags.has(flagHasAt), Done: rc.flags.has(flagDone),
		Decoded: rc.flags.has(flagDecoded), InvalidUTF8: rc.flags.has(flagInvalidUTF8), Oversized: rc.flags.has(flagOversized),
		FromClient: rc.flags.has(flagFromClient)}
	if rc.kind == RowFrame {
		r.Type = t.types[rc.typ]
	} else {
		r.Summary = t.summaries[rc.typ]
	}
}
