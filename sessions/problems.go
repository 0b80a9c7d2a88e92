package sessions

import "fmt"

// maxProblems bounds the problems kept per capture; the rest are counted.
const maxProblems = 1000

// problemList collects problems, bounded by maxProblems.
type problemList struct {
	list       []Problem
	kept       int
	suppressed int
}

func (p *problemList) add(line int, format string, args ...any) {
	if p.kept >= maxProblems {
		p.suppressed++
		return
	}
	p.kept++
	p.list = append(p.list, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
}

// note records an informational remark (not damage).
func (p *problemList) note(format string, args ...any) {
	p.list = append(p.list, Problem{Message: fmt.Sprintf(format, args...), Note: true})
}

// finish reports how many problems were not kept; call once at the end.
func (p *problemList) finish() {
	if p.suppressed > 0 {
		p.list = append(p.list, Problem{Message: fmt.Sprintf("%d more problems not reported (only the first %d are kept)", p.suppressed, maxProblems)})
		p.suppressed = 0
	}
}

func (p *problemList) take() []Problem {
	l := p.list
	p.list = nil
	return l
}
