package mcp

import "framescope/decode"

// A long tool's stream is mostly small notifications; the mapper reads
// each message's members in one pass over the frame's members (Get per
// member compared every key again, six times a message), and a progress
// notification's params in one pass with a decode.Cursor.

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
	c := decode.NewCursor(r)
	if !c.Object() {
		return g
	}
	for k, ok := c.Member(); ok; k, ok = c.Member() {
		g.set(k, c.Value())
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
	}
}

// progressFields reads a progress notification's params (MCP
// basic/utilities/progress): progressToken, progress, message.
func progressFields(params decode.Raw) (tok, val, text decode.Raw) {
	c := decode.NewCursor(params)
	if !c.Object() {
		return nil, nil, nil
	}
	for k, ok := c.Member(); ok; k, ok = c.Member() {
		switch string(k) {
		case "progressToken":
			tok = c.Value()
		case "progress":
			val = c.Value()
		case "message":
			text = c.Value()
		}
	}
	return tok, val, text
}
