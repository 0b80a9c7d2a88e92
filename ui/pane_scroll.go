package ui

import "charm.land/bubbles/v2/help"

// scrollPane is what every scrolling pane over the shared view state
// holds — its size, focus and scroll — and the methods of Pane that are
// the same for all of them (a pane's own keys beyond scrolling are its
// own Keys). Client, Components, Status, Timing and Tools embed it.
type scrollPane struct {
	sh      *shared
	w, h    int
	focused bool
	sc      scroller
}

func (p *scrollPane) SetSize(w, h int)  { p.w, p.h = w, h }
func (p *scrollPane) Focus()            { p.focused = true }
func (p *scrollPane) Blur()             { p.focused = false }
func (p *scrollPane) Keys() help.KeyMap { return scrollKeys(p.sh.keys) }
