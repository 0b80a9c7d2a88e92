package proxy

import "net/http"

// refusePriorKnowledge answers 505 to HTTP/2 with prior knowledge (h2c:
// the connection preface "PRI * HTTP/2.0", RFC 9113 §3.3), which the
// proxy does not speak: Go's HTTP/1 server hands the preface to the
// handler as a request, and it was forwarded upstream as one. It reports
// whether it answered.
func refusePriorKnowledge(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != "PRI" || r.ProtoMajor != 2 {
		return false
	}
	w.Header().Set("Connection", "close")
	http.Error(w, "framescope proxy: HTTP/2 with prior knowledge (PRI * HTTP/2.0, h2c) is not supported: speak HTTP/1.1 to the proxy"+
		" (it speaks HTTP/2 to an https:// upstream that offers it)", http.StatusHTTPVersionNotSupported)
	return true
}
