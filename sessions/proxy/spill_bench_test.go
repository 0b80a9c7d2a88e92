package proxy

import (
	"testing"
	"time"

	"framescope/sessions"
)

// What a 64 KB read costs the copy loop on its way to the checker (the
// figures tap.go's DefaultQueueBytes and docs/proxy.md quote):
//
//	go test ./sessions/proxy/ -run '^$' -bench 'TapQueue|SpillWrite'
//
// queued in memory (a copy into a block, taken back by the checker), or
// appended to a spill file into pages the file already has, or into new
// ones (a fresh file every 256 MiB, as a long spill grows).
func BenchmarkTapQueue64K(b *testing.B) {
	tp := newTap(sessions.Meta{}, time.Now(), 1<<30, &queueBudget{limit: 1 << 30}, nil)
	p := make([]byte, 64<<10)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		tp.push(p)
		if _, err := tp.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpillWrite64K(b *testing.B) {
	for _, c := range []struct {
		name  string
		fresh bool
	}{{"reused-pages", false}, {"new-pages", true}} {
		b.Run(c.name, func(b *testing.B) {
			const span = 256 << 20
			budget := &spillBudget{limit: 1 << 40, dir: b.TempDir()}
			p := make([]byte, 64<<10)
			var sp *spillFile
			var off int64
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				if sp == nil || off+int64(spillHeader+len(p)) > span {
					if sp != nil && c.fresh {
						sp.w = off
						sp.close(budget)
						sp = nil
					}
					if sp == nil {
						var err error
						if sp, err = newSpillFile(budget.dir); err != nil {
							b.Fatal(err)
						}
					}
					off = 0
				}
				n, err := sp.write(off, 0, 0, p, budget)
				if err != nil {
					b.Fatal(err)
				}
				off += n
			}
			if sp != nil {
				sp.w = max(off, sp.w)
				sp.close(budget)
			}
		})
	}
}
