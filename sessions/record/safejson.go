package record

import "framescope/decode"

// escapeInJSON reports whether a rune is written as a \u escape in the
// JSON strings of the files framescope writes (captures, session
// metadata): every rune the terminal sanitizer escapes — C0 and C1
// controls (U+009B is a CSI by itself), DEL, bidi controls, zero-width
// and invisible characters, line and paragraph separators — so that
// `cat capture.jsonl` is as safe as `framescope open`. JSON decodes the
// escapes back to the same runes: the file still reads back byte-exact.
func escapeInJSON(r rune) bool { return decode.UnsafeRune(r) }
