package invariants

// Rule describes one rule of the catalog. Rule names are a stable public
// interface: QA pipelines grep for them and the JSON report carries them.
type Rule struct {
	Name string
	// Severity is the rule's severity; rules with two (frame-size,
	// tool-unfinished, component-unfilled, terminal-missing) list the
	// stronger one here and say when the weaker applies in Summary.
	Severity Severity
	Clause   string
	Summary  string
}
