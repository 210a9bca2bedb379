package presburger

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// cstatus classifies a constraint of one basic with respect to the other
// basic of a pair (isl's STATUS_*).
type cstatus int8

const (
	stValid    cstatus = iota + 1 // holds on the whole other basic
	stSeparate                    // holds on none of its integer points
	stCut                         // holds on some of its points only
	stAdjEq                       // the other basic lies where it is -1
	stAdjIneq                     // it is -1 minus an inequality of the other
)

// cinfo is one basic of a pair in the pair's common columns, with its
// tableau and the status of its constraints with respect to the other.
// eqSt has two entries per equality e: -e >= 0, then e >= 0. eqLow and
// ineqLow hold, in the same order, the minimum of each constraint on the
// integer points of the other basic as far as the rational one shows it
// (rounded up), capped at 0 (ok false: unbounded below there), which the
// simple hull shifts it by.
type cinfo struct {
	b              *basic
	tab            *simplex.Tableau
	eqSt           []cstatus
	ineqSt         []cstatus
	eqLow, ineqLow []lowBound
}

// lowBound is a lower bound of a constraint on a basic; see cinfo.
type lowBound struct {
	v  int64
	ok bool
}

// pair holds the state of coalescing two basics: the originals (for the
// exact check) and their aligned versions.
type pair struct {
	orig      [2]*basic
	others    func() []*basic // the other disjuncts, which a fusion may also cover (built when asked)
	info      [2]*cinfo
	result    *part
	separated bool // the aligned basics are rationally disjoint
}

func newPair(a, b *part, a2, b2 *basic, owned [][]bool, others func() []*basic) *pair {
	p := &pair{orig: [2]*basic{a.b, b.b}, others: others}
	for k, x := range []*basic{a2, b2} {
		c, tab := []*part{a, b}[k].aligned(x, func(x *basic) {
			x.reduceCoefficients()
			if owned != nil {
				x.fixConstantLocals(owned[k])
			}
		})
		if c == nil {
			return &pair{}
		}
		p.info[k] = &cinfo{b: c, tab: tab}
	}
	return p
}

// fixConstantLocals adds the equality e = v for every local e not owned
// (added by alignment) that takes the single integer value v on b, as isl
// does for the locals it adds when aligning two basics: the integer points
// do not change, the rational relaxation shrinks.
func (b *basic) fixConstantLocals(owned []bool) {
	if len(b.divs) == 0 {
		return
	}
	tab := b.tableau()
	if tab.Empty() {
		return
	}
	for k := range b.divs {
		if owned[k] {
			continue
		}
		obj := make([]int64, b.nCol())
		obj[b.divCol(k)] = 1
		lo, lden, st := tab.Min(obj)
		if st != simplex.Optimal {
			continue
		}
		hi, hden, st := tab.Max(obj)
		if st != simplex.Optimal {
			continue
		}
		if v := arith.CeilDiv(lo, lden); v == arith.FloorDiv(hi, hden) && (lden != 1 || hden != 1 || lo != hi) {
			obj[0] = arith.Neg(v)
			b.eqs = append(b.eqs, obj)
			tab.AddEq(obj)
		}
	}
}

// cleanAligned removes the stored inequalities of an aligned basic that are
// redundant and turns implicit equalities into equalities, keeping the
// column layout (no simplification), and returns it with a tableau of it:
// the one the reduction used (its redundant rows no longer restrict it)
// unless an implicit equality would stay unpinned there. It returns nil
// when x is rationally empty.
func cleanAligned(x *basic) (*basic, *simplex.Tableau) {
	eqs, ineqs := x.system()
	red, impl, tab := simplex.ReduceTableau(eqs, ineqs, x.nSolverVars(), x.solver())
	if tab.Empty() {
		return nil, nil
	}
	c := x.clone()
	c.ineqs = nil
	seen := map[string]bool{}
	for _, e := range c.eqs {
		seen[eqKey(e)] = true
	}
	for i, in := range x.ineqs {
		switch {
		case impl[i]:
			if k := eqKey(in); !seen[k] {
				seen[k] = true
				c.eqs = append(c.eqs, append([]int64(nil), in...))
			}
		case !red[i]:
			c.ineqs = append(c.ineqs, append([]int64(nil), in...))
		}
	}
	if slices.Contains(impl, true) {
		tab = c.tableau()
	}
	return c, tab
}

// eqKey identifies an equality up to sign.
func eqKey(e []int64) string {
	if firstNonZero(e[1:]) < 0 {
		return rowKey(negRow(e, 0))
	}
	return rowKey(e)
}

func anyStatus(st []cstatus, s cstatus) bool { return countStatus(st, s) > 0 }

func countStatus(st []cstatus, s cstatus) int {
	n := 0
	for _, x := range st {
		if x == s {
			n++
		}
	}
	return n
}

func allStatus(st []cstatus, s cstatus) bool { return countStatus(st, s) == len(st) }

func findStatus(st []cstatus, s cstatus) int {
	for i, x := range st {
		if x == s {
			return i
		}
	}
	return -1
}

func (c *cinfo) allValid() bool {
	return allStatus(c.eqSt, stValid) && allStatus(c.ineqSt, stValid)
}

func (c *cinfo) allValidOrCut() bool {
	for _, st := range [][]cstatus{c.eqSt, c.ineqSt} {
		for _, x := range st {
			if x != stValid && x != stCut {
				return false
			}
		}
	}
	return true
}

// validOn reports whether row >= 0 holds on the rational points of t.
func validOn(t *simplex.Tableau, row []int64) bool {
	num, _, st := t.Min(row)
	return st == simplex.Infeasible || (st == simplex.Optimal && num >= 0)
}

// status classifies the constraint row >= 0 with respect to basic j of the
// pair (isl_tab_ineq_type). A constraint whose maximum on j lies in (-1, 0)
// has no integer point of j on its side but is treated as a cut, which only
// widens the cases tried.
func (p *pair) status(row []int64, j int) (cstatus, lowBound) {
	t := p.info[j].tab
	num, den, st := t.Min(row)
	if st == simplex.Infeasible || (st == simplex.Optimal && num >= 0) {
		return stValid, lowBound{0, true}
	}
	var low lowBound
	if st == simplex.Optimal {
		low = lowBound{arith.CeilDiv(num, den), true}
	}
	mx, mden, st2 := t.Max(row)
	if st2 != simplex.Optimal || mx >= 0 || mx > -mden {
		return stCut, low
	}
	if mx == -mden && st == simplex.Optimal && num == -den {
		return stAdjEq, low
	}
	if mden == 1 && p.adjacentIneq(row, arith.Neg(mx), j) {
		return stAdjIneq, low
	}
	return stSeparate, low
}

// adjacentIneq reports whether row = -k(1 + c) on basic j for an inequality
// c of j: on the affine hull of j, row >= 0 says c <= -1, the far side of
// the facet c = 0 of j (k is minus the maximum of row on j).
func (p *pair) adjacentIneq(row []int64, k int64, j int) bool {
	J := p.info[j]
	_, ineqs := J.b.system()
	sum := func(c []int64) []int64 {
		s := make([]int64, len(row))
		for l := range s {
			s[l] = arith.AddMul(row[l], k, c[l])
		}
		s[0] = arith.Add(s[0], k)
		return s
	}
	for _, c := range ineqs {
		if isZeroRow(sum(c)) {
			return true
		}
	}
	if len(J.b.eqs) == 0 {
		return false
	}
	for _, c := range ineqs {
		s := sum(c)
		lo, _, st := J.tab.Min(s)
		hi, _, st2 := J.tab.Max(s)
		if st == simplex.Optimal && st2 == simplex.Optimal && lo == 0 && hi == 0 {
			return true
		}
	}
	return false
}

func isZeroRow(r []int64) bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}

// computeStatus fills the statuses of both basics; it reports false when
// they are separated and cannot fuse (then not all are computed). The
// equalities come first, as in isl: when one of basic k separates it from
// j, j can only be an extension of k (see separatingEquality), which j's
// statuses alone can rule out.
func (p *pair) computeStatus() bool {
	for k := 0; k < 2; k++ {
		c := p.info[k]
		c.eqSt = make([]cstatus, 2*len(c.b.eqs))
		c.eqLow = make([]lowBound, 2*len(c.b.eqs))
		for l, e := range c.b.eqs {
			c.eqSt[2*l], c.eqLow[2*l] = p.status(negRow(e, 0), 1-k)
			c.eqSt[2*l+1], c.eqLow[2*l+1] = p.status(e, 1-k)
		}
	}
	for k := 0; k < 2; k++ {
		if anyStatus(p.info[k].eqSt, stSeparate) && !p.mayExtend(1-k) {
			return false
		}
	}
	for k := 0; k < 2; k++ {
		if p.info[k].ineqSt == nil && !p.ineqStatus(k, stSeparate) {
			return false
		}
	}
	return true
}

// mayExtend computes the statuses of the inequalities of basic j and
// reports whether j passes separatingEquality's first test: all its
// constraints valid for the other basic but a single adjacent inequality.
func (p *pair) mayExtend(j int) bool {
	J := p.info[j]
	if !allStatus(J.eqSt, stValid) || !p.ineqStatus(j, -1) {
		return false
	}
	return countStatus(J.ineqSt, stAdjIneq) == 1 && countStatus(J.ineqSt, stValid) == len(J.ineqSt)-1
}

// ineqStatus fills the statuses of the inequalities of basic k, stopping
// (and reporting false) at the first that is neither valid nor adjacent to
// an inequality when stop is -1, or at the first of status stop otherwise.
func (p *pair) ineqStatus(k int, stop cstatus) bool {
	c := p.info[k]
	c.ineqSt = make([]cstatus, len(c.b.ineqs))
	c.ineqLow = make([]lowBound, len(c.b.ineqs))
	for l, in := range c.b.ineqs {
		st, low := p.status(in, 1-k)
		c.ineqSt[l], c.ineqLow[l] = st, low
		if st == stop || (stop == -1 && st != stValid && st != stAdjIneq) {
			return false
		}
	}
	return true
}
