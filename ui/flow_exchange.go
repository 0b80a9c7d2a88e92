package ui

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/decode"
	"framescope/sessions/proxy"
)

// FlowExchange is one flow's request and response on the Flows screen
// (enter on a flow that is no stream, a tunnel, a stream no longer kept;
// d on any flow): method, URL, status, timing and bytes each way, then the
// response's headers and body and the request's — as the HTTP tab of the
// inspector shows an exchange (detail_http.go), the response first: what
// went wrong is read first. Everything is from the proxy's memory
// (proxy.Proxy.Detail, secrets already redacted), sanitized here; the
// pane only scrolls and copies.
type FlowExchange struct {
	sty     *Styles
	keys    FlowExchangeKeys
	w, h    int
	focused bool

	d      proxy.FlowDetail
	known  bool     // the proxy still held the flow's exchange
	lines  []jline  // the content, unwrapped
	shown  []string // lines wrapped to the width
	top    int
	notice string
}

// FlowExchangeKeys is the pane's key map.
type FlowExchangeKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Copy, CopyRaw, Back                     key.Binding
}

// DefaultFlowExchangeKeys are the inspector's navigation and copy keys.
func DefaultFlowExchangeKeys() FlowExchangeKeys {
	k := DefaultKeyMap()
	return FlowExchangeKeys{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom,
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy response body (sanitized)")),
		CopyRaw: key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy it raw")),
		Back:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back to flows")),
	}
}

func (k FlowExchangeKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Back, k.Down, k.Copy, k.CopyRaw}
}

func (k FlowExchangeKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Copy, k.CopyRaw, k.Back}}
}

// newFlowExchange shows d (known: false when the proxy no longer held the
// flow: d is then the list's copy, without headers or bodies).
func newFlowExchange(sty *Styles, d proxy.FlowDetail, known bool) *FlowExchange {
	p := &FlowExchange{sty: sty, keys: DefaultFlowExchangeKeys(), d: d, known: known}
	p.lines = flowExchangeLines(d, known, sty)
	return p
}

func (p *FlowExchange) SetSize(w, h int) {
	p.w, p.h = w, h
	p.shown = p.shown[:0]
	for _, l := range p.lines {
		if ansi.StringWidth(l.plain) <= w || w <= 0 {
			p.shown = append(p.shown, l.styled)
			continue
		}
		p.shown = append(p.shown, strings.Split(ansi.Wrap(l.styled, w, ""), "\n")...)
	}
	p.scrollTo(p.top)
}

func (p *FlowExchange) Focus()            { p.focused = true }
func (p *FlowExchange) Blur()             { p.focused = false }
func (p *FlowExchange) Keys() help.KeyMap { return p.keys }

// Title names the flow and, when it does not fit, the lines shown
// ("flow 3 GET 404 · lines 1–27 of 40").
func (p *FlowExchange) Title() string {
	status := ""
	if p.d.Status != 0 {
		status = fmt.Sprintf(" %d", p.d.Status)
	}
	s := fmt.Sprintf("flow %d %s%s", p.d.ID, decode.Sanitize(p.d.Method), status)
	if len(p.shown) > p.h {
		s += fmt.Sprintf(" · lines %d–%d of %d", p.top+1, min(p.top+p.h, len(p.shown)), len(p.shown))
	}
	return s
}

// Notice is what the last key did ("" when nothing to say).
func (p *FlowExchange) Notice() string { return p.notice }

func (p *FlowExchange) scrollTo(top int) {
	p.top = max(min(top, len(p.shown)-p.h), 0)
}

func (p *FlowExchange) Update(msg tea.Msg) (Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		p.notice = ""
		k := &p.keys
		switch {
		case key.Matches(msg, k.Up):
			p.scrollTo(p.top - 1)
		case key.Matches(msg, k.Down):
			p.scrollTo(p.top + 1)
		case key.Matches(msg, k.PageUp):
			p.scrollTo(p.top - max(p.h-1, 1))
		case key.Matches(msg, k.PageDown):
			p.scrollTo(p.top + max(p.h-1, 1))
		case key.Matches(msg, k.Top):
			p.scrollTo(0)
		case key.Matches(msg, k.Bottom):
			p.scrollTo(len(p.shown))
		case key.Matches(msg, k.Copy):
			return p, p.copyBody(false)
		case key.Matches(msg, k.CopyRaw):
			return p, p.copyBody(true)
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			p.scrollTo(p.top - 3)
		} else {
			p.scrollTo(p.top + 3)
		}
	}
	return p, nil
}

// copyBody puts the response body on the clipboard, as the inspector's
// y / Y copy a frame (copy.go: sanitized or raw, cut at copyMax); the
// body is the redacted one the proxy kept.
func (p *FlowExchange) copyBody(raw bool) tea.Cmd {
	body := p.d.Body
	if len(body) == 0 {
		p.notice = "no response body kept to copy"
		return nil
	}
	text, how, cut := clipText(body, raw)
	p.notice = fmt.Sprintf("copied the response body (%s, %s) to the clipboard", fmtBytes(int64(len(text))), how)
	if cut {
		p.notice = fmt.Sprintf("copied the first %s of the response body (%s) to the clipboard: cut at the clipboard limit",
			fmtBytes(int64(len(text))), how)
	}
	return tea.SetClipboard(text)
}

func (p *FlowExchange) View() string {
	end := min(p.top+p.h, len(p.shown))
	return block(p.shown[p.top:end], p.w, p.h)
}

// flowExchangeLines is the content: a summary, the response, the request.
func flowExchangeLines(d proxy.FlowDetail, known bool, sty *Styles) []jline {
	var out []jline
	add := func(s string, render func(...string) string) { out = append(out, jline{s, render(s)}) }
	blank := func() { out = append(out, jline{}) }
	f := &d.Flow

	add(decode.Sanitize(f.Method)+" "+decode.Sanitize(f.URL), sty.Bold.Render)
	status := "no response"
	switch {
	case f.Kind == proxy.KindTunnel && f.Status != 0:
		status = "200 Connection Established"
	case f.Status != 0:
		status = statusText(f.Status)
	case !f.Done:
		status = "waiting for the response"
	}
	statusStyle := sty.Bold.Render
	if f.Status >= 400 || f.Status == 0 && f.Done {
		statusStyle = sty.SevError.Render
	}
	what := string(f.Kind)
	if f.ContentType != "" {
		what += " · " + decode.Sanitize(f.ContentType)
	}
	add(status+" · "+what, statusStyle)
	took := "took " + shortDuration(f.Duration)
	if !f.Done {
		took = "running for " + shortDuration(f.Duration)
	}
	add(fmt.Sprintf("started %s · %s · %s", f.Started.Format("2006-01-02 15:04:05.000"), took, flowBytes(d)), sty.Base.Render)
	if f.Err != "" {
		add("ended: "+decode.Sanitize(f.Err), sty.SevError.Render)
	}
	out = append(out, flowKindLines(d, sty)...)
	for _, n := range f.Notes {
		add("note: "+decode.Sanitize(n), sty.Dim.Render)
	}
	if !known {
		blank()
		add("the proxy no longer holds this flow's headers and bodies (it keeps the latest flows only: proxy --max-flows)", sty.Dim.Render)
		return out
	}
	if d.BodiesDropped {
		add("its headers and bodies were given up to keep the proxy's memory bounded (64 MiB for all flows): newer flows have theirs", sty.Dim.Render)
	} else if d.HeadersCut {
		add("its headers were over 64 KiB: the fields that did not fit are left out", sty.Dim.Render)
	}

	if d.ResponseHeaders != nil {
		blank()
		add("response headers:", sty.Dim.Render)
		out = append(out, headerLines(d.ResponseHeaders, sty)...)
	}
	if f.Kind == proxy.KindHTTP && f.Done && !d.BodiesDropped {
		blank()
		out = append(out, flowBodyLines("response body", f.Body, f.BodyCut, f.Bytes, sty)...)
	}
	if d.RequestHeaders != nil {
		blank()
		add("request headers:", sty.Dim.Render)
		out = append(out, headerLines(d.RequestHeaders, sty)...)
	}
	if d.RequestSize > 0 && !d.BodiesDropped {
		blank()
		out = append(out, flowBodyLines("request body", d.RequestBody, int64(len(d.RequestBody)) < d.RequestSize, d.RequestSize, sty)...)
	}
	return out
}

// flowKindLines say what a flow carried beyond HTTP: a stream's check
// (and where its saved session is), a tunnel's blindness.
func flowKindLines(d proxy.FlowDetail, sty *Styles) []jline {
	var out []jline
	add := func(s string, render func(...string) string) { out = append(out, jline{s, render(s)}) }
	f := &d.Flow
	switch f.Kind {
	case proxy.KindTunnel:
		add("a CONNECT tunnel passed on blind: its bytes are encrypted and not shown (--mitm decrypts them)", sty.Dim.Render)
	case proxy.KindWebSocket:
		add("an upgraded connection (WebSocket) passed on untouched: its messages are not shown", sty.Dim.Render)
	case proxy.KindStream:
		dialect := decode.Sanitize(f.Dialect)
		if dialect == "" {
			dialect = "no dialect detected"
		}
		c := f.Counts
		add(fmt.Sprintf("stream: %s, %d frames, alarms %d error %d warn %d info", dialect, f.Frames, c.Error, c.Warn, c.Info), sty.Base.Render)
		if f.Behind > 0 {
			add(fmt.Sprintf("the checker fell behind: %s passed to the app were not checked or recorded", fmtBytes(f.Behind)), sty.SevWarn.Render)
		}
		for _, a := range f.Alarms {
			add(fmt.Sprintf("  %s %s  %s", sevMark(a.Severity), decode.Sanitize(a.Rule), decode.Sanitize(a.Message)), sty.Sev(a.Severity).Render)
		}
		if f.SessionID != "" {
			add("its frames are in the saved session: framescope open @"+decode.Sanitize(f.SessionID), sty.Bold.Render)
		} else {
			add("its frames were not saved (--no-save, or the library refused it)", sty.Dim.Render)
		}
	}
	return out
}

// flowBytes says the bytes each way (a tunnel's count both together).
func flowBytes(d proxy.FlowDetail) string {
	if d.Kind == proxy.KindTunnel || d.Kind == proxy.KindWebSocket {
		return fmt.Sprintf("%s both ways", fmtBytes(d.Bytes))
	}
	return fmt.Sprintf("request %s · response %s", fmtBytes(d.RequestSize), fmtBytes(d.Bytes))
}

// flowBodyLines shows a kept body: text as the HTTP tab does (JSON
// pretty-printed, sanitized, bodyLines), a binary one as its size and
// its first bytes in hex. more: only the start was kept; size: the
// whole body's.
func flowBodyLines(label string, body []byte, more bool, size int64, sty *Styles) []jline {
	if !binaryBody(body) {
		out := bodyLines(label, body, false, sty)
		// The label says the body's size as it passed (a redacted one
		// is longer or shorter), and how much of it was kept.
		head := fmt.Sprintf("%s (%s):", label, fmtBytes(size))
		if more {
			head = fmt.Sprintf("%s (%s, the first %s kept):", label, fmtBytes(size), fmtBytes(int64(len(body))))
		}
		out[0] = jline{head, sty.Dim.Render(head)}
		if n := len(out); n > 2 && out[n-1].plain == "" { // the body's own last newline
			out = out[:n-1]
		}
		return out
	}
	var out []jline
	add := func(s string, render func(...string) string) { out = append(out, jline{s, render(s)}) }
	add(fmt.Sprintf("%s (%s, binary: the first %d bytes in hex):", label, fmtBytes(size), min(len(body), hexShown)), sty.Dim.Render)
	for i := 0; i < len(body) && i < hexShown; i += 16 {
		row := body[i:min(i+16, len(body), hexShown)]
		add(fmt.Sprintf("%04x  % x", i, row), sty.Base.Render)
	}
	return out
}

// hexShown is the bytes of a binary body shown as hex.
const hexShown = 256

// binaryBody says whether a body is not text: not UTF-8, or with NULs.
func binaryBody(b []byte) bool {
	head := b[:min(len(b), 4096)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 && len(head) >= utf8.UTFMax { // not a character cut at the end
			return true
		}
		head = head[n:]
	}
	return false
}
