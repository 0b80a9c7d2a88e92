package mcp

import "framescope/decode"

// A long tool's stream is mostly small notifications; the mapper reads
// each message's members in one pass over the frame's members (Get per
// member compared every key again, six times a message), and a batch
// element's members and a progress notification's params in one pass over
// theirs.

// rpcNames are the members of a JSON-RPC message the mapper reads, in
// rpc.from's order.
var rpcNames = decode.Names("jsonrpc", "id", "method", "params", "result", "error")

// frameRPC reads a frame's members. A frame with a key written with
// escapes names no extra member (the TS SDK's check below is for keys as
// servers write them).
func frameRPC(f *decode.Frame) (g rpc) {
	var v [6]decode.Raw
	esc := false
	for i := range f.Members {
		mb := &f.Members[i]
		esc = esc || mb.KeyEsc
		if s := rpcNames.Slot(mb.Key, mb.KeyEsc); s >= 0 {
			v[s] = mb.Value // the last of a key wins, as with Get
		} else if g.extra == nil {
			g.extra = mb.Key // the TS SDK's strict schema rejects it
		}
	}
	if esc {
		g.extra = nil
	}
	g.from(&v)
	return g
}

// rawRPC reads a batch element's members (a validated object).
func rawRPC(r decode.Raw) (g rpc) {
	var v [6]decode.Raw
	it := r.Members()
	for k, esc, mv, ok := it.Next(); ok; k, esc, mv, ok = it.Next() {
		if s := rpcNames.Slot(k, esc); s >= 0 {
			v[s] = mv
		} else if g.extra == nil {
			g.extra = decode.DecodedKey(k, esc)
		}
	}
	g.from(&v)
	return g
}

// from sets the members rpcNames picked.
func (g *rpc) from(v *[6]decode.Raw) {
	g.jsonrpc, g.id, g.method, g.params, g.result, g.err = v[0], v[1], v[2], v[3], v[4], v[5]
}

// progressNames are a progress notification's params (MCP
// basic/utilities/progress): progressToken, progress, message.
var progressNames = decode.Names("progressToken", "progress", "message")

// progressFields reads a progress notification's params.
func progressFields(params decode.Raw) (tok, val, text decode.Raw) {
	var v [3]decode.Raw
	progressNames.Pick(params, v[:])
	return v[0], v[1], v[2]
}
