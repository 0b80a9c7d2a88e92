package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/ui/source"
	"framescope/ui/store"
)

// examples is the repository's example captures.
var examples = filepath.Join("..", "testdata", "examples")

var fixedNow = time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)

// feedAll runs a source to its end synchronously and returns every message
// the feeder sent.
func feedAll(t testing.TB, src store.Source) []tea.Msg {
	t.Helper()
	var msgs []tea.Msg
	f := start(context.Background(), src, func(m tea.Msg) { msgs = append(msgs, m) }, time.Millisecond)
	<-f.Sent()
	return msgs
}

func openSource(t testing.TB, path string) store.Source {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return source.Capture(filepath.Base(path), c, invariants.Options{})
}

// loadModel is a model at w×h with the whole capture applied.
func loadModel(t testing.TB, path string, w, h int, dark bool) *Model {
	t.Helper()
	m := NewModel(filepath.Base(path), false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range feedAll(t, openSource(t, path)) {
		m.Update(msg)
	}
	return m
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// storeOf runs a source and applies every batch to a fresh store.
func storeOf(t testing.TB, src store.Source) *store.Store {
	t.Helper()
	st := store.NewStore()
	for _, m := range feedAll(t, src) {
		st.Apply(m.(batchMsg).b)
	}
	return st
}

func readerSource(t testing.TB, name, data string) store.Source {
	t.Helper()
	c, err := capture.OpenReader(name, strings.NewReader(data), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	return source.Capture(name, c, invariants.Options{})
}

const frameFmt = "event: %s\ndata: {\"event_type\":\"%s\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.%03dZ\",\"response_id\":\"%s\"%s}\n\n"

func frame(typ, rid string, ms int, extra string) string {
	return fmt.Sprintf(frameFmt, typ, typ, ms, rid, extra)
}
