package store

import (
	"sync"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/machine"
)

// What the panes ask of the stream's dialect, besides its moves: how it
// words its rows (invariants.Wording), whether it ships a reference client
// machine, and whether its timeline label says more than its frames'
// label. Until the dialect is known the stream reads as the default
// dialect (dialects.Default), as the pipeline reads it.

// dialectView is what the store asks of its dialect, looked up once.
type dialectView struct {
	known      bool
	wording    *invariants.Wording
	machine    machine.Machine
	rowLabeler rowLabeler
}

// rowLabeler is a dialect whose timeline label can say more than its
// frames' label (invariants.Spec.RowLabel).
type rowLabeler interface {
	RowLabel(f *decode.Frame) string
}

func viewOf(d invariants.Dialect) dialectView {
	if d == nil {
		d = dialects.Default()
	}
	v := dialectView{known: true, wording: invariants.WordingOf(d), machine: machine.Of(d)}
	v.rowLabeler, _ = d.(rowLabeler)
	return v
}

var defaultView = sync.OnceValue(func() dialectView { return viewOf(nil) })

func (s *Store) view() *dialectView {
	if !s.dialect.known {
		s.dialect = defaultView()
	}
	return &s.dialect
}

// Wording is how the stream's dialect words its rows and turns (read
// only; the common turn model's when it has no words of its own).
func (s *Store) Wording() *invariants.Wording { return s.view().wording }

// Machine is the stream's dialect's reference client machine, nil when it
// ships none (the Client pane then shows what any client of the stream
// renders, read from the moves: ClientViewAsOf).
func (s *Store) Machine() machine.Machine { return s.view().machine }
