package sessions

import (
	"net/http"
)

// Guard wraps a handler (the scenario relay) with the replay server's
// front door: the DNS-rebinding defence (loopback Host and Origin only,
// unless allowOrigin) and opt-in CORS for browser clients.
func Guard(h http.Handler, allowOrigin, cors bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !allowOrigin {
			if why := replayRefuseReason(req); why != "" {
				replayPlainError(w, http.StatusForbidden, "framescope serve: refused: "+why+
					"; only loopback hosts and origins are served (DNS-rebinding defence): restart with --allow-origin to serve other hosts.\n")
				return
			}
		}
		if origin := req.Header.Get("Origin"); cors && origin != "" && headerValueOK(origin) {
			hdr := w.Header()
			hdr.Set("Access-Control-Allow-Origin", origin)
			hdr.Set("Vary", "Origin")
			if req.Method == http.MethodOptions {
				hdr.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
				if ah := req.Header.Get("Access-Control-Request-Headers"); ah != "" && headerValueOK(ah) {
					hdr.Set("Access-Control-Allow-Headers", ah)
				}
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		h.ServeHTTP(w, req)
	})
}
