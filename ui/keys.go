package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the program; the help views are generated
// from it.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	NextPane         key.Binding
	PrevPane         key.Binding
	NextAlarm        key.Binding // n: next alarm, or next search hit while searching
	PrevAlarm        key.Binding
	Follow           key.Binding
	Search           key.Binding
	ClearSearch      key.Binding
	Enter            key.Binding // alarms: go to the alarm's frame
	Expand           key.Binding // detail: expand the folded JSON (and back)
	OpenDetail       key.Binding // timeline: enter opens the Detail of the frame
	Back             key.Binding // detail: esc goes back to the Timeline
	NextTab          key.Binding // the Detail pane's tab, wherever the focus is
	PrevTab          key.Binding
	Cancel           key.Binding
	Copy             key.Binding // the frame's data, sanitized (copy.go)
	CopyRaw          key.Binding // the frame's data as received
	Zoom             key.Binding // the focused pane fills the body (and back)
	Timing           key.Binding // the Timing view in the Client pane's place (and back)
	Reconnect        key.Binding // live: a new session with the same request
	Scenario         key.Binding // demo: the scenario picker
	Help             key.Binding
	CloseHelp        key.Binding // while help is open: q, esc or ? close it
	Quit             key.Binding // q quits, except while help is open
	ForceQuit        key.Binding // ctrl+c quits from anywhere

	// The pickers (session picker, scenario picker): printable keys type
	// the filter, so they move and choose with these.
	PickUp, PickDown         key.Binding
	PickPageUp, PickPageDown key.Binding
	PickChoose               key.Binding
	PickBack                 key.Binding // clear the filter, else close
	PickQuit                 key.Binding

	// Playback, filters and writing captures (playback.go, filter.go, write.go).
	Play         key.Binding
	Faster       key.Binding
	Slower       key.Binding
	StepBack     key.Binding
	StepForward  key.Binding
	Filter       key.Binding
	AlarmsOnly   key.Binding
	ClearFilter  key.Binding
	WriteTurn    key.Binding
	WriteSession key.Binding
}

// DefaultKeyMap returns the bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:         key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		NextPane:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev pane")),
		NextAlarm:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next alarm/hit")),
		PrevAlarm:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "prev alarm/hit")),
		Follow:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow")),
		Search:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		ClearSearch: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "end search")),
		Enter:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to the alarm's frame")),
		Expand:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "expand folded JSON")),
		OpenDetail:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open in Detail")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to Timeline")),
		NextTab:     key.NewBinding(key.WithKeys("t", "]"), key.WithHelp("t", "next Detail tab")),
		PrevTab:     key.NewBinding(key.WithKeys("T", "["), key.WithHelp("T", "prev Detail tab")),
		Cancel:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel stream")),
		Copy:        key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy data (sanitized)")),
		CopyRaw:     key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy raw bytes")),
		Zoom:        key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "zoom pane")),
		Timing:      key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "timing view")),
		Reconnect:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reconnect")),
		Scenario:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "scenario")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		CloseHelp:   key.NewBinding(key.WithKeys("q", "esc", "?"), key.WithHelp("q/esc", "close help")),
		Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit from anywhere")),

		PickUp:       key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		PickDown:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		PickPageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PickPageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		PickChoose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		PickBack:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear / back")),
		PickQuit:     key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),

		Play:         key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play/pause")),
		Faster:       key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:       key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		StepBack:     key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "prev frame")),
		StepForward:  key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next frame")),
		Filter:       key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "filter types")),
		AlarmsOnly:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "alarms only")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		WriteTurn:    key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write turn")),
		WriteSession: key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "write session")),
	}
}

// bindingHelp is a help.KeyMap made of fixed lists.
type bindingHelp struct {
	short []key.Binding
	full  [][]key.Binding
}

func (b bindingHelp) ShortHelp() []key.Binding  { return b.short }
func (b bindingHelp) FullHelp() [][]key.Binding { return b.full }

func (k *KeyMap) navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}
