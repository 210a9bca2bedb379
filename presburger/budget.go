package presburger

import (
	"math"
	"sync"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Limits bounds the work of each exported operation. An operation that
// exceeds them returns ErrBudget instead of running on.
type Limits struct {
	// MaxOps caps the simplex pivots and integer-search steps of one
	// operation, summed over every solver call it makes, and the tableau
	// entries they combine at entriesPerOp per step.
	MaxOps int64
	// MaxPieces caps the disjuncts one operation may hold at once (subtract
	// and complement can otherwise grow exponentially).
	MaxPieces int
}

// DefaultLimits are the limits in force until SetLimits changes them:
// generous for compiler-sized problems, yet a blow-up stops within seconds.
var DefaultLimits = Limits{MaxOps: 20_000_000, MaxPieces: 20_000}

var (
	limitsMu sync.RWMutex
	limits   = DefaultLimits
)

// SetLimits sets the limits of operations started afterwards. A zero field
// keeps the default.
func SetLimits(l Limits) {
	if l.MaxOps <= 0 {
		l.MaxOps = DefaultLimits.MaxOps
	}
	if l.MaxPieces <= 0 {
		l.MaxPieces = DefaultLimits.MaxPieces
	}
	limitsMu.Lock()
	limits = l
	limitsMu.Unlock()
}

// CurrentLimits returns the limits in force.
func CurrentLimits() Limits {
	limitsMu.RLock()
	defer limitsMu.RUnlock()
	return limits
}

// opBudget is the budget of one exported operation, shared by every basic it
// touches.
type opBudget struct {
	simplex.Budget
	maxPieces int
}

// newBudget starts the budget of an operation. Under an interrupt (a
// watched context that ended) the operation fails at once, even one that
// would never reach the solver, so that a loop of cheap operations stops
// too.
func newBudget() *opBudget {
	if simplex.Interrupted() {
		panic(simplex.BudgetExceeded{})
	}
	l := CurrentLimits()
	entries := l.MaxOps * entriesPerOp
	if entries/entriesPerOp != l.MaxOps {
		entries = math.MaxInt64
	}
	return &opBudget{Budget: simplex.Budget{Ops: l.MaxOps, Entries: entries, CapEntries: true}, maxPieces: l.MaxPieces}
}

// entriesPerOp is the tableau entries an operation may combine (pivots,
// and constraints added over basic variables) per step of MaxOps: 100, a
// pivot of a 10 x 10 tableau. Steps alone did not bound time: the random-
// program campaign's seed 101269 ran one coalesce for more than 15
// minutes, pip rebuilding integer-sampling tableaus of 1,400 rows within
// 20 million steps. With the default limits an operation now stops after
// 2e9 entries, seconds of work; the compilations of the PolyMage pipelines
// and PolyBench kernels are byte for byte what they were.
const entriesPerOp = 100

// solver returns the simplex budget (nil: the solver's own default).
func (b *basic) solver() *simplex.Budget {
	if b.bud == nil {
		return nil
	}
	return &b.bud.Budget
}

// checkPieces stops an operation whose disjuncts exceed the limit.
func (o *opBudget) checkPieces(n int) {
	if o != nil && n > o.maxPieces {
		panic(simplex.BudgetExceeded{})
	}
}

// spendOn charges the size of pieces built outside the solver, so that
// an operation multiplying large pieces stops like one pivoting too long.
func (o *opBudget) spendOn(pieces []*basic) {
	if o == nil {
		return
	}
	var n int64
	for _, p := range pieces {
		n += int64(p.nCol()) * int64(1+len(p.eqs)+len(p.ineqs))
	}
	o.Spend(n)
}

// budget returns the budget attached to r's pieces, if any.
func (r rel) budget() *opBudget {
	for _, b := range r.parts {
		if b.bud != nil {
			return b.bud
		}
	}
	return nil
}

// with returns r whose pieces charge bud; the pieces are shallow copies, so
// r itself (possibly shared) is untouched.
func (r rel) with(bud *opBudget) rel {
	out := rel{space: r.space, parts: make([]*basic, len(r.parts))}
	for i, b := range r.parts {
		c := *b
		c.bud = bud
		out.parts[i] = &c
	}
	return out
}

func (u union) with(bud *opBudget) union {
	out := union{params: u.params, rels: make([]rel, len(u.rels))}
	for i, r := range u.rels {
		out.rels[i] = r.with(bud)
	}
	return out
}

// exhausted reports whether o has no operations left (false for nil).
func (o *opBudget) exhausted() bool { return o != nil && o.Ops <= 0 }

// charge spends n operations of a heuristic that may stop early with a
// result that is still exact (coalescing): it reports true when the budget
// is exhausted, instead of failing the operation, and panics only under an
// interrupt (a watched context that ended).
func (o *opBudget) charge(n int64) (stop bool) {
	if simplex.Interrupted() {
		panic(simplex.BudgetExceeded{})
	}
	if o == nil {
		return false
	}
	o.Ops -= n
	return o.Ops <= 0
}
