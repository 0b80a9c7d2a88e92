package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/ui/store"
)

// Styles is every style the program uses, built once from a small set of
// semantic colours for a light or dark background. With NoColor (NO_COLOR
// set) nothing is coloured: emphasis is bold, faint, underline and reverse.
type Styles struct {
	Dark    bool
	NoColor bool

	Base     lipgloss.Style
	Dim      lipgloss.Style
	Bold     lipgloss.Style
	Header   lipgloss.Style // the header band
	HeaderHi lipgloss.Style // the source name in the header
	Label    lipgloss.Style // "frames", "bytes" in the header

	Title        lipgloss.Style // a pane's title line (blurred)
	TitleFocused lipgloss.Style // a pane's title line (focused)
	TabActive    lipgloss.Style
	TabInactive  lipgloss.Style
	Sep          lipgloss.Style // separators between panes

	Selected     lipgloss.Style // the cursor row of the focused pane
	SelectedBlur lipgloss.Style // the cursor row when the pane is not focused
	Match        lipgloss.Style // a search hit
	MatchMark    lipgloss.Style
	TurnMark     lipgloss.Style // "turn 2 ▸" on the first frame of a turn

	SevError lipgloss.Style
	SevWarn  lipgloss.Style
	SevInfo  lipgloss.Style

	// Event type categories.
	TypeLifecycle lipgloss.Style // response_id, episode, completed, [DONE]
	TypeContent   lipgloss.Style // text, reasoning, thinking
	TypeTool      lipgloss.Style // tool_call, tool_completed
	TypeData      lipgloss.Style // data_loading, data_loaded, component
	TypeStatus    lipgloss.Style
	TypeError     lipgloss.Style // error, cancelled, undecodable frames
	TypeOther     lipgloss.Style // usage, mcp_*, unknown

	JSONKey    lipgloss.Style
	JSONString lipgloss.Style
	JSONNumber lipgloss.Style
	JSONLit    lipgloss.Style
	JSONPunct  lipgloss.Style

	Bar     lipgloss.Style // a finished tool call
	BarOpen lipgloss.Style // a call still open as of the cursor
	Cursor  lipgloss.Style // the cursor's time marker in the waterfall

	// The client pane: the v0.5 client's current state, the v0.4
	// client's where it differs, the marker of a divergence.
	ClientNow lipgloss.Style
	ClientV04 lipgloss.Style
	Diverge   lipgloss.Style

	Help help.Styles
}

// palette is the semantic colours, light and dark.
type palette struct {
	fg, dim, subtle, accent, accentBg, selBg, selBlurBg, matchBg color.Color
	red, yellow, blue, green, cyan, magenta, orange              color.Color
}

func newPalette(dark bool) palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return palette{
		fg:        ld(c("#1f2328"), c("#e6e6e6")),
		dim:       ld(c("#6e7781"), c("#8b949e")),
		subtle:    ld(c("#d0d7de"), c("#3b4048")),
		accent:    ld(c("#0550ae"), c("#79c0ff")),
		accentBg:  ld(c("#ddf4ff"), c("#1f3a5f")),
		selBg:     ld(c("#b6e3ff"), c("#264f78")),
		selBlurBg: ld(c("#eaeef2"), c("#30363d")),
		matchBg:   ld(c("#fff8c5"), c("#6e5a00")),
		red:       ld(c("#cf222e"), c("#ff7b72")),
		yellow:    ld(c("#9a6700"), c("#e3b341")),
		blue:      ld(c("#0969da"), c("#58a6ff")),
		green:     ld(c("#1a7f37"), c("#3fb950")),
		cyan:      ld(c("#1b7c83"), c("#39c5cf")),
		magenta:   ld(c("#8250df"), c("#d2a8ff")),
		orange:    ld(c("#bc4c00"), c("#ffa657")),
	}
}

// NewStyles builds the styles for a dark or light background.
func NewStyles(dark, noColor bool) *Styles {
	n := lipgloss.NewStyle
	if noColor {
		s := &Styles{Dark: dark, NoColor: true,
			Base: n(), Dim: n().Faint(true), Bold: n().Bold(true),
			Header: n(), HeaderHi: n().Bold(true), Label: n().Faint(true),
			Title: n().Faint(true), TitleFocused: n().Bold(true).Underline(true),
			TabActive: n().Bold(true).Reverse(true), TabInactive: n(), Sep: n().Faint(true),
			Selected: n().Reverse(true), SelectedBlur: n().Underline(true),
			Match: n().Underline(true).Bold(true), MatchMark: n().Bold(true), TurnMark: n().Bold(true).Reverse(true),
			SevError: n().Bold(true), SevWarn: n(), SevInfo: n().Faint(true),
			TypeLifecycle: n().Bold(true), TypeContent: n(), TypeTool: n(), TypeData: n(),
			TypeStatus: n(), TypeError: n().Bold(true), TypeOther: n().Faint(true),
			JSONKey: n().Bold(true), JSONString: n(), JSONNumber: n(), JSONLit: n(), JSONPunct: n().Faint(true),
			Bar: n(), BarOpen: n().Bold(true), Cursor: n().Bold(true),
			ClientNow: n().Bold(true).Reverse(true), ClientV04: n().Underline(true), Diverge: n().Bold(true).Underline(true),
		}
		s.Help = help.Styles{
			ShortKey: n().Bold(true), ShortDesc: n(), ShortSeparator: n().Faint(true), Ellipsis: n().Faint(true),
			FullKey: n().Bold(true), FullDesc: n(), FullSeparator: n().Faint(true),
		}
		return s
	}
	p := newPalette(dark)
	s := &Styles{Dark: dark,
		Base:     n().Foreground(p.fg),
		Dim:      n().Foreground(p.dim),
		Bold:     n().Bold(true),
		Header:   n().Foreground(p.fg),
		HeaderHi: n().Foreground(p.accent).Bold(true),
		Label:    n().Foreground(p.dim),

		Title:        n().Foreground(p.dim).Background(p.selBlurBg),
		TitleFocused: n().Foreground(p.accent).Background(p.accentBg).Bold(true),
		TabActive:    n().Foreground(p.accent).Background(p.accentBg).Bold(true),
		TabInactive:  n().Foreground(p.dim),
		Sep:          n().Foreground(p.subtle),

		Selected:     n().Background(p.selBg),
		SelectedBlur: n().Background(p.selBlurBg),
		Match:        n().Background(p.matchBg).Foreground(p.fg),
		MatchMark:    n().Foreground(p.yellow).Bold(true),
		TurnMark:     n().Foreground(p.accent).Background(p.accentBg).Bold(true),

		SevError: n().Foreground(p.red).Bold(true),
		SevWarn:  n().Foreground(p.yellow),
		SevInfo:  n().Foreground(p.blue),

		TypeLifecycle: n().Foreground(p.green),
		TypeContent:   n().Foreground(p.fg),
		TypeTool:      n().Foreground(p.cyan),
		TypeData:      n().Foreground(p.magenta),
		TypeStatus:    n().Foreground(p.yellow),
		TypeError:     n().Foreground(p.red).Bold(true),
		TypeOther:     n().Foreground(p.dim),

		JSONKey:    n().Foreground(p.blue),
		JSONString: n().Foreground(p.green),
		JSONNumber: n().Foreground(p.orange),
		JSONLit:    n().Foreground(p.magenta),
		JSONPunct:  n().Foreground(p.dim),

		Bar:     n().Foreground(p.cyan),
		BarOpen: n().Foreground(p.orange).Bold(true),
		Cursor:  n().Foreground(p.accent),

		ClientNow: n().Foreground(p.accent).Background(p.accentBg).Bold(true),
		ClientV04: n().Foreground(p.orange).Bold(true),
		Diverge:   n().Foreground(p.magenta).Bold(true),
	}
	s.Help = help.DefaultStyles(dark)
	s.Help.ShortKey = n().Foreground(p.accent)
	s.Help.FullKey = n().Foreground(p.accent)
	return s
}

// Sev returns the style of a severity.
func (s *Styles) Sev(sev invariants.Severity) lipgloss.Style {
	switch sev {
	case invariants.SevError:
		return s.SevError
	case invariants.SevWarn:
		return s.SevWarn
	case invariants.SevInfo:
		return s.SevInfo
	}
	return s.Dim
}

// EventType returns the style of an event type.
func (s *Styles) EventType(r *store.Row) lipgloss.Style {
	if r.Kind != store.RowFrame {
		return s.Dim
	}
	if !r.Decoded && !r.Done {
		return s.TypeError
	}
	switch r.Type {
	case pc3.TypeResponseID, pc3.TypeEpisode, pc3.TypeCompleted, "[DONE]":
		return s.TypeLifecycle
	case pc3.TypeText, pc3.TypeReasoning, pc3.TypeThinking:
		return s.TypeContent
	case pc3.TypeToolCall, pc3.TypeToolCompleted:
		return s.TypeTool
	case pc3.TypeDataLoading, pc3.TypeDataLoaded, pc3.TypeComponent:
		return s.TypeData
	case pc3.TypeStatus:
		return s.TypeStatus
	case pc3.TypeError, pc3.TypeCancelled:
		return s.TypeError
	}
	return s.TypeOther
}

// sevMark is the one-cell marker of a severity (distinct shapes, so it
// reads without colour too).
func sevMark(sev invariants.Severity) string {
	switch sev {
	case invariants.SevError:
		return "✖"
	case invariants.SevWarn:
		return "▲"
	case invariants.SevInfo:
		return "●"
	}
	return " "
}
