package a2a

import (
	"framescope/decode"
	"framescope/invariants"
)

// v1.0's event bodies are proto messages in ProtoJSON (§5.5; specification/
// a2a.proto Task, Message, TaskStatusUpdateEvent, TaskArtifactUpdateEvent).
// a2a-python's client parses each with json_format.ParseDict / Parse
// (client/transports/jsonrpc.py and rest.py _send_stream_request), which
// rejects a member the message does not define: a v0.3 leftover such as
// kind or final breaks the stream (ParseError). ProtoJSON accepts a field's
// JSON name and its proto name alike.
var v10Fields = [...]*decode.NameSet{
	evTask:     decode.Names("id", "contextId", "context_id", "status", "artifacts", "history", "metadata"),
	evStatus:   decode.Names("taskId", "task_id", "contextId", "context_id", "status", "metadata"),
	evArtifact: decode.Names("taskId", "task_id", "contextId", "context_id", "artifact", "append", "lastChunk", "last_chunk", "metadata"),
	evMessage: decode.Names("messageId", "message_id", "contextId", "context_id", "taskId", "task_id", "role", "parts", "metadata",
		"extensions", "referenceTaskIds", "reference_task_ids"),
	evError: nil,
}

// strictFields raises payload-malformed (once per stream, naming the
// first: the client throws at the first such event, and a server that adds
// the member adds it to every event) when a v1.0 event body holds a member
// its proto message does not define.
func (p *mapper) strictFields(m *invariants.Mapping, ev *event) {
	if p.strictRaised || ev.form == formKind || ev.wrapper == "msg" || int(ev.kind) >= len(v10Fields) {
		return
	}
	known := v10Fields[ev.kind]
	if known == nil {
		return
	}
	it := ev.body.Members()
	for k, esc, _, ok := it.Next(); ok; k, esc, _, ok = it.Next() {
		if ev.form == formBare && ev.kind == evStatus && decode.KeyIs(k, esc, "final") {
			// v0.3's HTTP+JSON binding sends the v0.3 proto's JSON: the
			// same statusUpdate wrapper, with final (a2a-python
			// compat/v0_3/a2a_v0_3.proto TaskStatusUpdateEvent.final).
			// Only the JSON-RPC wrapper form is v1.0's alone.
			continue
		}
		if known.Slot(k, esc) < 0 {
			p.strictRaised = true
			m.Malformed(ev.wrapper, "member "+decode.Clip(string(k), 40)+" is not a field of the v1.0 "+ev.wrapper+
				" (a v0.3 leftover?): a2a-python's client parses the event with protobuf's json_format and raises ParseError (said once per stream)")
			return
		}
	}
}
