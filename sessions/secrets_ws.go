package sessions

import "strings"

// A browser cannot set an Authorization header on a WebSocket, so APIs
// take the key in a Sec-WebSocket-Protocol value instead
// ("realtime, openai-insecure-api-key.sk-…"). That subprotocol is a
// credential: its key is redacted as an Authorization header is, and the
// other subprotocols are kept.

// wsProtocolHeader is the header whose values carry such keys.
const wsProtocolHeader = "Sec-WebSocket-Protocol"

// keyProtocolMarks mark a subprotocol that carries a key: its name up to
// the mark stays, the rest is the secret.
var keyProtocolMarks = []string{"api-key.", "apikey.", "token.", "key.", "auth.", "bearer.", "ephemeral-key."}

// RedactWSProtocols redacts the keys in a Sec-WebSocket-Protocol value
// (a comma-separated list); changed says whether one was found.
func RedactWSProtocols(v string) (string, bool) {
	parts := strings.Split(v, ",")
	changed := false
	for i, p := range parts {
		t := strings.TrimSpace(p)
		lower := strings.ToLower(t)
		cut := -1
		for _, m := range keyProtocolMarks {
			if j := strings.Index(lower, m); j >= 0 && j+len(m) < len(t) {
				cut = j + len(m)
				break
			}
		}
		if cut < 0 && (strings.HasPrefix(lower, "sk-") || strings.Contains(lower, ".sk-")) {
			cut = strings.Index(lower, "sk-")
		}
		if cut < 0 {
			continue
		}
		lead := p[:len(p)-len(strings.TrimLeft(p, " \t"))]
		parts[i] = lead + t[:cut] + RedactedValue
		changed = true
	}
	return strings.Join(parts, ","), changed
}

// RedactWSHeaders is RedactHeaders for a WebSocket handshake: the keys
// in Sec-WebSocket-Protocol are redacted too (named with the others).
func RedactWSHeaders(h map[string]string, extra []string, keep bool) (map[string]string, []string) {
	out, names := RedactHeaders(h, extra, keep)
	if keep {
		return out, names
	}
	for k, v := range out {
		if strings.EqualFold(k, wsProtocolHeader) {
			if r, ok := RedactWSProtocols(v); ok {
				out[k] = r
				names = append(names, k)
			}
		}
	}
	return out, names
}
