//go:build unix

package langgraph

import (
	"syscall"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// benchMeta is the metadata langgraph pairs a chunk with (the pregel
// task's fields and the model's ls_* ones: vercel/ai
// packages/langchain/src/__fixtures__/langgraph.ts).
const benchMeta = `{"tags":[],"thread_id":"thread-1765862425919","langgraph_step":1,"langgraph_node":"model_request","langgraph_triggers":["branch:to:model_request"],"langgraph_path":["__pregel_pull","model_request"],"langgraph_checkpoint_ns":"model_request:e377e9fd-f4a2-5329-b182-c208cf3f31d5","__pregel_task_id":"e377e9fd-f4a2-5329-b182-c208cf3f31d5","checkpoint_ns":"model_request:e377e9fd-f4a2-5329-b182-c208cf3f31d5","ls_provider":"openai","ls_model_name":"gpt-4o-mini","ls_model_type":"chat"}`

// BenchmarkObserveDelta is the checking core's cost of a text delta: the
// frame is decoded once (the reading core's work), observed b.N times.
func BenchmarkObserveDelta(b *testing.B) {
	hot := "event: messages\ndata: [{\"content\":\"fox jumps \",\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--a1\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[]}," + benchMeta + "]\n\n"
	observeBench(b, meta+hot, hot)
}

func observeBench(b *testing.B, prefix, hot string) {
	chk := Dialect.NewChecker(invariants.Options{})
	var dec decode.Decoder
	decode.NewFramer().Feed([]byte(prefix), func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(dec.Decode(ev, 0, false))
		}
	})
	var f *decode.Frame
	decode.NewFramer().Feed([]byte(hot), func(ev *decode.Event) {
		if f == nil && ev.Dispatched() {
			c := ev.Clone()
			f = dec.Decode(&c, 0, false).Clone()
		}
	})
	b.SetBytes(int64(len(f.Raw)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if len(chk.Observe(f)) != 0 {
			b.Fatal("the hot frame raises alarms")
		}
	}
	// CPU time per frame: on a shared machine wall time counts the
	// time other processes ran.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
