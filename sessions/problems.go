package sessions

import "fmt"

// MaxProblems bounds the problems kept per capture; the rest are counted.
const MaxProblems = 1000

// ProblemList collects problems, bounded by MaxProblems.
type ProblemList struct {
	list       []Problem
	kept       int
	suppressed int
}

func (p *ProblemList) Add(line int, format string, args ...any) {
	p.add(line, false, format, args...)
}

// AddLost records damage that dropped recorded bytes (Problem.Lost).
func (p *ProblemList) AddLost(line int, format string, args ...any) {
	p.add(line, true, format, args...)
}

func (p *ProblemList) add(line int, lost bool, format string, args ...any) {
	if p.kept >= MaxProblems {
		p.suppressed++
		return
	}
	p.kept++
	p.list = append(p.list, Problem{Line: line, Message: fmt.Sprintf(format, args...), Lost: lost})
}

// Note records an informational remark (not damage).
func (p *ProblemList) Note(format string, args ...any) {
	p.list = append(p.list, Problem{Message: fmt.Sprintf(format, args...), Note: true})
}

// Finish reports how many problems were not kept; call once at the end.
func (p *ProblemList) Finish() {
	if p.suppressed > 0 {
		p.list = append(p.list, Problem{Message: fmt.Sprintf("%d more problems not reported (only the first %d are kept)", p.suppressed, MaxProblems)})
		p.suppressed = 0
	}
}

func (p *ProblemList) Take() []Problem {
	l := p.list
	p.list = nil
	return l
}
