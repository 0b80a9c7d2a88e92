package mcp

import "framescope/decode"

// A long tool's stream is mostly small notifications; the mapper reads
// each message's members in one pass over the frame's members (Get per
// member compared every key again, six times a message), and a batch
// element's members and a progress notification's params in one pass with
// decode's trusted walkers (the decoder validated them: decode/trusted.go).

// frameRPC reads a frame's members.
func frameRPC(f *decode.Frame) (g rpc) {
	for i := range f.Members {
		mb := &f.Members[i]
		if mb.KeyEsc { // a key with escapes: Get compares it decoded
			return rpc{jsonrpc: f.Get("jsonrpc"), id: f.Get("id"), method: f.Get("method"),
				params: f.Get("params"), result: f.Get("result"), err: f.Get("error")}
		}
		g.set(mb.Key, mb.Value)
	}
	return g
}

// rawRPC reads a batch element's members (a validated object).
func rawRPC(r decode.Raw) (g rpc) {
	it := r.TrustedMembers()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		g.set(decode.DecodedKey(k, esc), v)
	}
	return g
}

// set keeps a member the mapper reads; the last of a key wins, as with Get.
func (g *rpc) set(k []byte, v decode.Raw) {
	switch string(k) {
	case "jsonrpc":
		g.jsonrpc = v
	case "id":
		g.id = v
	case "method":
		g.method = v
	case "params":
		g.params = v
	case "result":
		g.result = v
	case "error":
		g.err = v
	default:
		if g.extra == nil {
			g.extra = k // the TS SDK's strict schema rejects it
		}
	}
}

// progressFields reads a progress notification's params (MCP
// basic/utilities/progress): progressToken, progress, message.
func progressFields(params decode.Raw) (tok, val, text decode.Raw) {
	it := params.TrustedMembers()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		switch string(decode.DecodedKey(k, esc)) {
		case "progressToken":
			tok = v
		case "progress":
			val = v
		case "message":
			text = v
		}
	}
	return tok, val, text
}
