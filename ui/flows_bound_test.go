package ui

import (
	"testing"
	"time"

	"framescope/sessions/proxy"
)

// TestFlowsListKeepsTheProxyBound (item 22): the Flows screen listed up to
// 10,000 flows while the proxy remembers --max-flows (2,000 by default);
// it keeps the same bound now, the oldest finished ones forgotten, a
// running one kept.
func TestFlowsListKeepsTheProxyBound(t *testing.T) {
	for _, max := range []int{0, 500} {
		want := max
		if want == 0 {
			want = proxy.DefaultMaxFlows
		}
		a := NewFlowsApp(FlowsOptions{Listen: "127.0.0.1:7071", MaxFlows: max}, Config{Now: func() time.Time { return fixedNow }})
		running := proxy.Flow{ID: 1, Kind: proxy.KindStream, Method: "GET", URL: "http://x/", Started: fixedNow}
		a.list.Add([]proxy.Flow{running})
		for id := int64(2); id <= 10000; id += 100 {
			var batch []proxy.Flow
			for i := id; i < id+100; i++ {
				batch = append(batch, proxy.Flow{ID: i, Kind: proxy.KindHTTP, Method: "GET", URL: "http://x/", Status: 200, Done: true, Started: fixedNow})
			}
			a.list.Add(batch)
		}
		if n := len(a.list.all); n != want {
			t.Errorf("MaxFlows %d: %d flows listed, want %d", max, n, want)
		}
		if a.list.all[0].ID != 1 {
			t.Errorf("MaxFlows %d: the running flow was forgotten", max)
		}
		if len(a.list.index) != len(a.list.all) {
			t.Errorf("MaxFlows %d: index holds %d, list %d", max, len(a.list.index), len(a.list.all))
		}
	}
}
