package invariants

import (
	"testing"

	"framescope/decode"
)

// FuzzStampCache: the minute cache reads every stamp as the plain parser
// does, whatever stamp came before it.
func FuzzStampCache(f *testing.F) {
	f.Add(`"2026-05-15T18:00:00.050Z"`, `"2026-05-15T18:00:01.5+02:00"`)
	f.Add(`"2026-05-15T18:00:59Z"`, `"2026-05-15T18:01:00Z"`)
	f.Add(`"2026-05-15T18:00:00Z"`, `"2026-05-15T18:00:0"`)
	f.Add(`"2024-02-29T23:59:60Z"`, `"2024-02-29T23:59:61Z"`)
	f.Fuzz(func(t *testing.T, a, b string) {
		var c stampCache
		for _, s := range []string{a, b, a} {
			got, gok := c.rfc3339(decode.Raw(s))
			want, wok := StampRFC3339(decode.Raw(s))
			if got != want || gok != wok {
				t.Fatalf("%q after the cache saw %q: cached %v %v, plain %v %v", s, a, got, gok, want, wok)
			}
		}
	})
}
