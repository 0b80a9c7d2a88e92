package mcp

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// maxRequests bounds the requests read from one POST body (a batch of a
// million ids must not grow the checker).
const maxRequests = 1024

// request is one JSON-RPC request the POST body sent (JSON-RPC 2.0 §4).
type request struct {
	id     string // the id as a compact JSON literal: `1`, `"a"`
	idRaw  decode.Raw
	method string
	tool   string // params.name of a tools/call
	token  string // params._meta.progressToken as a compact JSON literal ("" none)
	answer bool   // a response for it arrived
}

// exchange is what the HTTP exchange says to the mapper, read once at the
// stream's first frame.
type exchange struct {
	// known: the source carried the exchange (not a raw body).
	known bool
	// aware: the exchange is a POST whose body parsed and sent at least
	// one request: the request-aware rules apply.
	aware    bool
	method   string
	requests []request
	index    map[string]int  // requests by id literal
	tokens   map[string]bool // progress tokens the requests set
	// headerRev is the MCP-Protocol-Version request header; metaRev the
	// first request's _meta io.modelcontextprotocol/protocolVersion
	// (2026-07-28); initRev an initialize request's protocolVersion.
	headerRev, metaRev, initRev string
	lastEventID                 string
	sessionReq, sessionResp     string
	url                         string // the request's URL ("" unknown)
}

// readExchange reads the exchange (nil: a raw body).
func readExchange(x *invariants.Exchange) exchange {
	var out exchange
	if x == nil {
		return out
	}
	out.known = true
	out.url = x.URL
	out.method = strings.ToUpper(x.Method)
	out.headerRev = strings.TrimSpace(x.RequestHeader("MCP-Protocol-Version"))
	out.lastEventID = x.RequestHeader("Last-Event-ID")
	out.sessionReq = strings.TrimSpace(x.RequestHeader("Mcp-Session-Id"))
	out.sessionResp = strings.TrimSpace(x.ResponseHeader("Mcp-Session-Id"))
	if out.method != "POST" || len(x.RequestBody) == 0 {
		return out
	}
	body := bytes.TrimSpace(x.RequestBody)
	var msgs []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		// A batch (2025-03-26 Transports §Sending Messages).
		if json.Unmarshal(body, &msgs) != nil {
			return out
		}
	} else {
		msgs = []json.RawMessage{body}
	}
	for _, raw := range msgs {
		if len(out.requests) == maxRequests {
			break
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name            string `json:"name"`
				ProtocolVersion string `json:"protocolVersion"`
				Meta            struct {
					ProgressToken json.RawMessage `json:"progressToken"`
					Version       string          `json:"io.modelcontextprotocol/protocolVersion"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(raw, &msg) != nil {
			// A body that does not parse (cut short, redacted) says
			// nothing: the request-aware rules stay off.
			return exchange{known: true, method: out.method, headerRev: out.headerRev, lastEventID: out.lastEventID,
				sessionReq: out.sessionReq, sessionResp: out.sessionResp, url: out.url}
		}
		if v := msg.Params.Meta.Version; v != "" && out.metaRev == "" {
			out.metaRev = v
		}
		if msg.Method == "initialize" && msg.Params.ProtocolVersion != "" {
			out.initRev = msg.Params.ProtocolVersion
		}
		if len(msg.ID) == 0 || msg.Method == "" || string(msg.ID) == "null" {
			continue // a notification or a response the client sent: no answer is owed
		}
		r := request{id: compact(msg.ID), method: msg.Method, token: compact(msg.Params.Meta.ProgressToken)}
		if msg.Method == "tools/call" {
			r.tool = msg.Params.Name
		}
		out.requests = append(out.requests, r)
	}
	out.aware = len(out.requests) > 0
	out.index = make(map[string]int, len(out.requests))
	out.tokens = map[string]bool{}
	for i, r := range out.requests {
		out.requests[i].idRaw = decode.Raw(r.id)
		if r.token != "" {
			out.tokens[idKey([]byte(r.token))] = true
		}
		if k := idKey([]byte(r.id)); !hasKey(out.index, k) {
			out.index[k] = i
		}
	}
	return out
}

func compact(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// revision is the protocol revision the exchange names: the header, else
// the 2026 _meta, else an initialize request's ("" unknown).
func (x *exchange) revision() string {
	switch {
	case x.headerRev != "":
		return x.headerRev
	case x.metaRev != "":
		return x.metaRev
	}
	return x.initRev
}

// find returns the request with the id literal, nil when none.
func (x *exchange) find(id []byte) *request {
	if i, ok := x.index[idKey(id)]; ok {
		return &x.requests[i]
	}
	return nil
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// idKey is the key an id literal (or progress token) correlates by: both
// SDKs take a string of decimal digits for the integer it spells (TS
// protocol.ts _onresponse / _onprogress: Number(id); python
// shared/dispatcher.py coerce_request_id: int() of a string id), so "7"
// and 7 are one id. Any other literal is its own key.
func idKey(lit []byte) string {
	s := lit
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	neg := len(s) > 0 && s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return string(lit)
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return string(lit)
		}
	}
	d = bytes.TrimLeft(d, "0")
	switch {
	case len(d) == 0:
		return "0"
	case neg:
		return "-" + string(d)
	}
	if len(s) == len(lit) {
		return string(lit) // a number literal: already its key (no copy of the digits)
	}
	return string(d)
}

// foreignEndpoint says whether a legacy endpoint URI, resolved against the
// stream's URL, lies on another origin (scheme, host, port with the
// scheme's default filled in): both SDKs refuse it (TS sse.ts, python
// sse.py: "Endpoint origin does not match connection origin"). False when
// the stream's URL is unknown or either does not parse.
func foreignEndpoint(streamURL string, endpoint []byte) (string, bool) {
	if streamURL == "" {
		return "", false
	}
	base, err := url.Parse(streamURL)
	if err != nil || base.Host == "" {
		return "", false
	}
	ref, err := url.Parse(string(endpoint))
	if err != nil {
		return "", false
	}
	ep := base.ResolveReference(ref)
	if origin(ep) == origin(base) {
		return "", false
	}
	return origin(ep), true
}

func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http", "ws":
			port = "80"
		case "https", "wss":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
