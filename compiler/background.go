package compiler

import (
	"runtime/debug"
	"time"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/scop"
)

// task is work a stage started beside the stages that follow it (the
// presburger library is safe for concurrent use): post-tiling fusion's
// dataflow runs beside the scheduling, and the check of its tree beside
// the AST generation and the emission.
type task[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// goTask runs fn on its own goroutine; a panic becomes the stage's
// InternalError.
func goTask[T any](s Stage, fn func() (T, error)) *task[T] {
	t := &task[T]{done: make(chan struct{})}
	go func() {
		defer close(t.done)
		defer func() {
			if v := recover(); v != nil {
				t.err = &InternalError{Stage: s, Value: v, Stack: debug.Stack()}
			}
		}()
		t.val, t.err = fn()
	}()
	return t
}

// wait returns fn's results once it has ended.
func (t *task[T]) wait() (T, error) {
	<-t.done
	return t.val, t.err
}

// startDataflow starts post-tiling fusion's dataflow analysis, which
// needs only the program, while the program is scheduled.
func (r *Result) startDataflow() {
	stop := r.Options.Stop
	if (r.Options.Strategy == Post || r.Options.Strategy == Schedule) && r.Options.Tree == nil && r.flow == nil && (stop == 0 || stop >= StageFuse) {
		p := r.Program
		r.flow = goTask(StageFuse, func() (*deps.Flow, error) { return deps.Dataflow(p) })
	}
}

// finishCheck waits for the check of the post tree, counting the wait in
// the fuse stage's time.
func (r *Result) finishCheck() error {
	if r.check == nil {
		return nil
	}
	start := time.Now()
	_, err := r.check.wait()
	r.Times[StageFuse] += time.Since(start)
	r.check = nil
	return err
}

// emitHints are the emitter's analyses of the program: the cold
// statements, and the selects that may evaluate both operands (none
// when the analysis fails, a budget: slower code, never wrong).
type emitHints struct {
	cold       map[string]bool
	speculable map[*scop.Select]bool
	acc        map[string][]bool
}

// startHints starts the emitter's analyses once; they need only the
// (inlined) program.
func (r *Result) startHints() {
	if r.hints != nil {
		return
	}
	p, estimate := r.Program, r.Options.Estimate
	r.hints = goTask(StageEmit, func() (emitHints, error) {
		if p == nil {
			return emitHints{}, nil
		}
		spec, _ := p.SpeculableSelects()
		acc, err := p.Accumulators()
		if err != nil {
			return emitHints{}, err
		}
		return emitHints{cold: coldStatements(p, estimate), speculable: spec, acc: acc}, nil
	})
}
