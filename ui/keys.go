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
	Enter            key.Binding
	NextTab          key.Binding // detail: JSON / raw / alarms
	PrevTab          key.Binding
	Cancel           key.Binding
	Copy             key.Binding
	Help             key.Binding
	Quit             key.Binding
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
		Enter:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump / expand")),
		NextTab:     key.NewBinding(key.WithKeys("t", "]"), key.WithHelp("t", "next tab")),
		PrevTab:     key.NewBinding(key.WithKeys("T", "["), key.WithHelp("T", "prev tab")),
		Cancel:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel stream")),
		Copy:        key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy frame data")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// bindingHelp is a help.KeyMap made of fixed lists.
type bindingHelp struct {
	short []key.Binding
	full  [][]key.Binding
}

func (b bindingHelp) ShortHelp() []key.Binding  { return b.short }
func (b bindingHelp) FullHelp() [][]key.Binding { return b.full }

// global returns the bindings every pane shares (for help).
func (k *KeyMap) global() []key.Binding {
	return []key.Binding{k.NextPane, k.NextAlarm, k.Search, k.Follow, k.Cancel, k.Help, k.Quit}
}

func (k *KeyMap) navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}
