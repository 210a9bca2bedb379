package inline

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// DefaultMaxCost is the default Options.MaxCost: a product of two loads
// read by a 3×3 stencil (9 × 1), or a three-operation expression read
// four times, is inlined; a stage with a division read nine times is not,
// nor a six-operation one that a 2× upsampling in two dimensions reads
// (6 × 4). A stage whose one consumer reads each element once (an
// injective read, the only read of the array in that statement) is
// inlined whatever it costs: no value is computed twice; so is a copy.
const DefaultMaxCost = 12

// Options tunes Program.
type Options struct {
	// MaxCost bounds the stage's recomputation: the sum, over the
	// distinct reads of its array in its consumers (reads of one element
	// are one: code generation evaluates them once), of the operations
	// the consumer evaluates for the read (Cost of the stage's expression
	// at the read's subscripts, a selection on constants folded) times
	// how many consumer instances read each element (readWeight: 2 along
	// a dimension read at floor(i/2), 4 along a dimension of 4 channels
	// the read does not name). It does not apply when one consumer reads
	// each element once, or to a copy. Zero means DefaultMaxCost.
	MaxCost int
	// Only, when set, names the statements to inline instead (a call
	// schedule's ComputeInline): each is inlined whatever its cost when
	// the other rules allow it, and no other is.
	Only []string
	// Keep names statements never inlined (transposed copies: inlined,
	// a copy would be undone).
	Keep []string
}

// Stage is one inlined statement: it wrote Array and now lives on in
// the bodies of Into.
type Stage struct {
	Stmt, Array string
	Into        []string
}

// Program returns p with its cheap pointwise stages inlined (see the
// package documentation) and the stages it inlined, in the order it did.
// p is not changed; when nothing is inlined the result is p itself.
func Program(p *scop.Program, opts Options) (*scop.Program, []Stage, error) {
	if opts.MaxCost == 0 {
		opts.MaxCost = DefaultMaxCost
	}
	w, err := newWork(p)
	if err != nil {
		return nil, nil, err
	}
	// Inlining a consumer can leave its producer with fewer consumers,
	// so sweep until nothing changes.
	var done []Stage
	for changed := true; changed; {
		changed = false
		for i, s := range w.stmts {
			if s == nil || (opts.Only != nil && !slices.Contains(opts.Only, s.Name)) || slices.Contains(opts.Keep, s.Name) {
				continue
			}
			st, ok, err := w.try(i, opts.MaxCost, opts.Only != nil)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				done, changed = append(done, st), true
			}
		}
	}
	if len(done) == 0 {
		return p, nil, nil
	}
	q, err := w.program(done)
	if err != nil {
		return nil, nil, fmt.Errorf("inline: %w", err)
	}
	return q, done, nil
}

// work is the program being rewritten: its statements (nil once inlined,
// copies once changed) with their positions in the outermost sequence.
type work struct {
	p     *scop.Program
	stmts []*scop.Stmt
	// pos is each statement's value of the first schedule dimension, or
	// nil when it is not fixed.
	pos []*int64
}

func newWork(p *scop.Program) (*work, error) {
	w := &work{p: p, stmts: append([]*scop.Stmt(nil), p.Stmts...), pos: make([]*int64, len(p.Stmts))}
	for i, s := range p.Stmts {
		if s.Schedule.Space().NOut() == 0 {
			continue
		}
		rng, err := s.Times()
		if err != nil {
			return nil, err
		}
		if v, fixed, err := rng.DimValue(0); err != nil {
			return nil, err
		} else if fixed {
			w.pos[i] = &v
		}
	}
	return w, nil
}

// try inlines statement i into its consumers when the package's rules
// allow it.
func (w *work) try(i, maxCost int, force bool) (Stage, bool, error) {
	s := w.stmts[i]
	a := w.p.Array(s.Write.Array)
	if w.pos[i] == nil || a == nil || a.LiveIn || a.LiveOut || s.MayWrite {
		return Stage{}, false, nil
	}
	perm, ok := writePermutation(s)
	if !ok || readsArray(s.Value, a.Name) {
		return Stage{}, false, nil
	}
	cost := scop.Cost(s.Value)
	here := *w.pos[i]
	for j, t := range w.stmts {
		if t == nil || j == i {
			continue
		}
		if t.Write.Array == a.Name {
			return Stage{}, false, nil // a second writer
		}
	}
	// The arrays s reads must be final when it runs.
	for _, r := range scop.Reads(s.Value) {
		for j, t := range w.stmts {
			if t != nil && t.Write.Array == r.Array && (w.pos[j] == nil || *w.pos[j] >= here) {
				return Stage{}, false, nil
			}
		}
	}
	var into []int
	recompute, bounded, single := 0, true, true
	for j, t := range w.stmts {
		if t == nil || j == i {
			continue
		}
		reads := distinctReads(t, a.Name)
		if len(reads) == 0 {
			continue
		}
		if w.pos[j] == nil || *w.pos[j] <= here || usedAsIndex(t, a.Name) {
			return Stage{}, false, nil
		}
		// Reads that differ only in constant subscripts (the channels of
		// an image) touch disjoint elements: each group counts once.
		groups := readGroups(reads)
		for _, g := range groups {
			rw, ok, err := readWeight(t, g[0])
			if err != nil {
				return Stage{}, false, err
			}
			// What the consumer evaluates for this read: the stage's
			// expression at its subscripts, a selection on a constant
			// folded (alpha read from an image defined per channel).
			evaluated := scop.Cost(substitute(g[0], a.Name, s.Value, perm))
			recompute, bounded = recompute+evaluated*rw, bounded && ok
		}
		single = single && len(groups) == 1 && oneToOne(variable(groups[0][0].Index), len(t.Iters))
		into = append(into, j)
	}
	switch {
	case len(into) == 0:
		return Stage{}, false, nil
	case len(into) == 1 && single, cost == 0, force:
		// Nothing computed twice, or nothing computed: a copy.
	case !bounded || recompute > maxCost:
		return Stage{}, false, nil
	}
	if ok, err := w.covered(i, a.Name); err != nil || !ok {
		return Stage{}, false, err
	}
	st := Stage{Stmt: s.Name, Array: a.Name}
	for _, j := range into {
		t := *w.stmts[j]
		sub := func(e scop.Expr) scop.Expr { return substitute(e, a.Name, s.Value, perm) }
		t.Value = sub(t.Value)
		t.Write.Index = make([]scop.Expr, len(w.stmts[j].Write.Index))
		for k, x := range w.stmts[j].Write.Index {
			t.Write.Index[k] = sub(x)
		}
		w.stmts[j] = &t
		st.Into = append(st.Into, t.Name)
	}
	w.stmts[i] = nil
	return st, true, nil
}

// covered reports whether every element of array that any statement of
// the original program reads is one statement i writes, every such read
// being exact. Reads that inlining moved into other statements are at
// elements their original statements read, so the original relations
// cover them.
func (w *work) covered(i int, array string) (bool, error) {
	written, err := w.p.Stmts[i].Writes[0].Rel.Range()
	if err != nil {
		return false, err
	}
	for _, t := range w.p.Stmts {
		for _, r := range t.Reads {
			if r.Array != array {
				continue
			}
			if r.May {
				return false, nil
			}
			read, err := r.Rel.Range()
			if err != nil {
				return false, err
			}
			if ok, err := read.IsSubset(written); err != nil || !ok {
				return false, err
			}
		}
	}
	return true, nil
}

// program is the rewritten program without the inlined stages and their
// arrays, its access relations derived afresh.
func (w *work) program(done []Stage) (*scop.Program, error) {
	gone := map[string]bool{}
	for _, st := range done {
		gone[st.Array] = true
	}
	q := *w.p
	q.Arrays = nil
	for _, a := range w.p.Arrays {
		if !gone[a.Name] {
			q.Arrays = append(q.Arrays, a)
		}
	}
	q.Stmts = nil
	for _, s := range w.stmts {
		if s != nil {
			c := *s
			q.Stmts = append(q.Stmts, &c)
		}
	}
	if err := q.Finish(); err != nil {
		return nil, err
	}
	return &q, nil
}
