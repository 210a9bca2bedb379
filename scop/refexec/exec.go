package refexec

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// InstanceError reports a statement instance that cannot run: an
// out-of-bounds access, an integer division by zero or a shift count out
// of range.
type InstanceError struct {
	Stmt     string
	Instance []int64  // the iteration vector
	Pos      scop.Pos // the failing expression's position, else the statement's
	Msg      string
}

func (e *InstanceError) Error() string {
	idx := make([]string, len(e.Instance))
	for i, v := range e.Instance {
		idx[i] = fmt.Sprint(v)
	}
	msg := fmt.Sprintf("statement %s at %s[%s]: %s", e.Stmt, e.Stmt, strings.Join(idx, ", "), e.Msg)
	if e.Pos.IsValid() || e.Pos.File != "" {
		msg = e.Pos.String() + ": " + msg
	}
	return msg
}

// Alloc returns a zeroed buffer for every array of p, shaped by its
// extents at the given parameter values.
func Alloc(p *scop.Program, params map[string]int64) (map[string]*scop.Buffer, error) {
	bufs := make(map[string]*scop.Buffer, len(p.Arrays))
	for _, a := range p.Arrays {
		b, err := alloc(a, params)
		if err != nil {
			return nil, err
		}
		bufs[a.Name] = b
	}
	return bufs, nil
}

func alloc(a *scop.Array, params map[string]int64) (*scop.Buffer, error) {
	return a.Buffer(params)
}

// Run executes p at the given parameter values on bufs: every statement
// instance once, in program order. Arrays without a buffer in bufs (the
// temporaries, typically) get a zeroed one, which is added to bufs when
// bufs is not nil; a buffer that is there must have its array's type and
// shape. The first instance that fails stops the run with an
// *InstanceError; the buffers then hold the effects of the instances
// before it.
func Run(p *scop.Program, params map[string]int64, bufs map[string]*scop.Buffer) (err error) {
	if err := p.CheckParams(params); err != nil {
		return err
	}
	if bufs, err = bindBuffers(p, params, bufs); err != nil {
		return err
	}
	if len(p.Stmts) == 0 {
		return nil
	}
	streams := make([]*stream, 0, len(p.Stmts))
	defer func() {
		for _, s := range streams {
			s.stop()
		}
	}()
	dim := p.Stmts[0].Schedule.Space().NOut()
	for k, s := range p.Stmts {
		code, err := (&compiler{s: s, params: params, bufs: bufs}).compileStmt()
		if err != nil {
			return err
		}
		st, err := newStream(s, k, dim, params)
		if err != nil {
			return err
		}
		st.code = code
		streams = append(streams, st)
		if err := st.advance(); err != nil {
			return err
		}
	}
	var cur *stream
	var f frame
	defer func() {
		if r := recover(); r != nil {
			fl, ok := r.(*failure)
			if !ok || cur == nil {
				panic(r)
			}
			at := fl.at
			if !at.IsValid() {
				at = cur.stmt.At
			}
			err = &InstanceError{Stmt: cur.stmt.Name, Instance: slices.Clone(cur.head[dim:]), Pos: at, Msg: fl.msg}
		}
	}()
	for {
		// The stream with the earliest instance runs until another one's
		// comes first.
		var best, second *stream
		for _, s := range streams {
			switch {
			case s.head == nil:
			case best == nil || before(s, best, dim):
				best, second = s, best
			case second == nil || before(s, second, dim):
				second = s
			}
		}
		if best == nil {
			return nil
		}
		cur = best
		for {
			f.iters = best.head[dim:]
			best.code(&f)
			if err := best.advance(); err != nil {
				return err
			}
			if best.head == nil || (second != nil && before(second, best, dim)) {
				break
			}
		}
	}
}

// bindBuffers checks that each buffer in bufs fits its array at params
// and gives every other array a zeroed one, added to bufs (a new map when
// bufs is nil).
func bindBuffers(p *scop.Program, params map[string]int64, bufs map[string]*scop.Buffer) (map[string]*scop.Buffer, error) {
	if bufs == nil {
		bufs = map[string]*scop.Buffer{}
	}
	for _, a := range p.Arrays {
		b := bufs[a.Name]
		if b == nil {
			b, err := alloc(a, params)
			if err != nil {
				return nil, err
			}
			bufs[a.Name] = b
			continue
		}
		shape, err := a.Shape(params)
		if err != nil {
			return nil, err
		}
		if b.Type != a.Type || !slices.Equal(b.Shape, shape) {
			return nil, fmt.Errorf("buffer of array %s is %s%v, want %s%v", a.Name, b.Type, b.Shape, a.Type, shape)
		}
		if int64(len(b.Data)) != product(shape)*int64(b.Type.Size()) {
			return nil, fmt.Errorf("buffer of array %s holds %d bytes, not %d elements of %s", a.Name, len(b.Data), product(shape), a.Type)
		}
	}
	return bufs, nil
}

func product(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

// before reports whether the head instance of a comes before that of b:
// by schedule time, then by statement.
func before(a, b *stream, dim int) bool {
	if c := slices.Compare(a.head[:dim], b.head[:dim]); c != 0 {
		return c < 0
	}
	return a.k < b.k
}

// stream yields the instances of one statement in schedule order, as
// points [time..., iterators...] of its inverse schedule.
type stream struct {
	stmt  *scop.Stmt
	k     int // textual position
	code  func(*frame)
	next  func() ([]int64, error, bool)
	stop  func()
	chunk []int64
	pos   int
	width int // time and iterators
	step  int // entries per point in chunk (at least 1)
	head  []int64
}

// chunkPoints is the number of points a stream fetches at a time.
const chunkPoints = 4096

// newStream checks that the schedule of s gives each instance exactly one
// time and prepares the enumeration of the instances in time order.
func newStream(s *scop.Stmt, k, dim int, params map[string]int64) (*stream, error) {
	fail := func(err error) (*stream, error) {
		return nil, fmt.Errorf("statement %s: %w", s.Name, err)
	}
	dom, err := s.Domain.FixParams(params)
	if err != nil {
		return fail(err)
	}
	sched, err := s.Schedule.FixParams(params)
	if err != nil {
		return fail(err)
	}
	if sched, err = sched.IntersectDomain(dom); err != nil {
		return fail(err)
	}
	if sched.Space().NOut() != dim {
		return fail(fmt.Errorf("schedule has %d dimensions, not %d", sched.Space().NOut(), dim))
	}
	if err := checkSchedule(s, dom, sched); err != nil {
		return fail(err)
	}
	rev, err := sched.Reverse()
	if err != nil {
		return fail(err)
	}
	timed, err := rev.Wrap()
	if err != nil {
		return fail(err)
	}
	n := len(s.Iters)
	st := &stream{stmt: s, k: k, width: dim + n, step: max(dim+n, 1)}
	st.next, st.stop = iter.Pull2(chunks(timed, st.width, st.step))
	st.pos = -st.step
	return st, nil
}

// checkSchedule reports an error unless sched gives every point of dom
// exactly one time. It decides this symbolically; when that fails (a
// budget or overflow error), it counts.
func checkSchedule(s *scop.Stmt, dom presburger.Set, sched presburger.Map) error {
	var untimed []int64
	single := true
	symbolic := func() error {
		d, err := sched.Domain()
		if err != nil {
			return err
		}
		missing, err := dom.Subtract(d)
		if err != nil {
			return err
		}
		if pt, ok, err := missing.SamplePoint(); err != nil || ok {
			untimed = pt
			return err
		}
		// Single-valued: two times of one instance differ by zero.
		rev, err := sched.Reverse()
		if err != nil {
			return err
		}
		pairs, err := rev.ApplyRange(sched)
		if err != nil {
			return err
		}
		deltas, err := pairs.Deltas()
		if err != nil {
			return err
		}
		zero := presburger.UniverseSet(deltas.Space())
		for k := range deltas.Space().NOut() {
			if zero, err = zero.FixDim(k, 0); err != nil {
				return err
			}
		}
		single, err = deltas.IsSubset(zero)
		return err
	}
	if err := symbolic(); err != nil {
		return countSchedule(s, dom, sched)
	}
	switch {
	case untimed != nil:
		return fmt.Errorf("schedule %s gives no time to instance %s%v", s.Schedule, s.Name, untimed)
	case !single:
		return fmt.Errorf("schedule %s is not a function: it gives some instances several times", s.Schedule)
	}
	return nil
}

// countSchedule is checkSchedule by enumeration: the distinct instances
// of the schedule's pairs must be the domain's, and there must be as many
// pairs.
func countSchedule(s *scop.Stmt, dom presburger.Set, sched presburger.Map) error {
	var instances int64
	if err := dom.Foreach(func([]int64) error { instances++; return nil }); err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	pairs, err := sched.Wrap()
	if err != nil {
		return err
	}
	n := len(s.Iters)
	var npairs, distinct int64
	prev := make([]int64, n)
	if err := pairs.Foreach(func(pt []int64) error {
		if npairs == 0 || !slices.Equal(prev, pt[:n]) {
			distinct++
			copy(prev, pt[:n])
		}
		npairs++
		return nil
	}); err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	switch {
	case distinct != instances:
		return fmt.Errorf("schedule %s gives a time to %d of the %d instances", s.Schedule, distinct, instances)
	case npairs != distinct:
		return fmt.Errorf("schedule %s is not a function: %d times for %d instances", s.Schedule, npairs, distinct)
	}
	return nil
}

// errStop ends an enumeration whose consumer has stopped.
var errStop = errors.New("refexec: stopped")

// chunks yields the points of set in lexicographic order, chunkPoints at a
// time, each padded to step entries. A chunk is valid until the next one is
// requested.
func chunks(set presburger.Set, width, step int) iter.Seq2[[]int64, error] {
	return func(yield func([]int64, error) bool) {
		buf := make([]int64, 0, chunkPoints*step)
		err := set.Foreach(func(pt []int64) error {
			buf = append(buf, pt...)
			if width < step {
				buf = append(buf, 0)
			}
			if len(buf) == cap(buf) {
				if !yield(buf, nil) {
					return errStop
				}
				buf = buf[:0]
			}
			return nil
		})
		switch {
		case errors.Is(err, errStop):
		case err != nil:
			yield(nil, err)
		case len(buf) > 0:
			yield(buf, nil)
		}
	}
}

// advance moves to the next instance; head is nil at the end.
func (s *stream) advance() error {
	s.pos += s.step
	if s.pos >= len(s.chunk) {
		chunk, err, ok := s.next()
		if !ok {
			s.head, s.chunk = nil, nil
			return nil
		}
		if err != nil {
			return fmt.Errorf("statement %s: %w", s.stmt.Name, err)
		}
		s.chunk, s.pos = chunk, 0
	}
	s.head = s.chunk[s.pos : s.pos+s.width]
	return nil
}
