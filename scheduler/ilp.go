package scheduler

// ilp is the integer program for one hyperplane of a group of statements.
// Its variables, in the order of the lexicographic objective, are
//
//	u_1..u_np, w,   then for each statement of the group:
//	d_1..d_np (parameter coefficients, with Options.ParamShifts only),
//	c_n..c_1 (iterator coefficients, innermost first), c0 (constant)
//
// all non-negative. Minimising u and w first minimises the bound
// u·params + w on the dependence distances (Pluto's objective); the
// iterator coefficients are minimised innermost first so that, among
// equally good hyperplanes, the outermost original loop wins.
type ilp struct {
	np         int // parameters: u has np entries
	nd         int // parameter coefficients per statement: np or 0
	stmts      []*stmt
	base       map[int]int // statement -> its first variable (d)
	c0         map[int]int // statement -> its constant's variable
	nvar       int
	eqs, ineqs [][]int64 // rows over [1, variables]
	seen       map[string]bool
}

// newILP lays out the variables of group. A statement mapped by alias to
// another one shares that statement's parameter and iterator coefficients
// (only its constant is its own).
func newILP(np, nd int, stmts []*stmt, group []int, alias map[int]int) *ilp {
	q := &ilp{np: np, nd: nd, stmts: stmts, base: map[int]int{}, c0: map[int]int{}, seen: map[string]bool{}}
	q.nvar = np + 1
	for _, s := range group {
		if r, ok := alias[s]; !ok || r == s {
			q.base[s] = q.nvar
			q.nvar += nd + stmts[s].dim
		}
		q.c0[s] = q.nvar
		q.nvar++
	}
	for _, s := range group {
		if r, ok := alias[s]; ok && r != s {
			q.base[s] = q.base[r]
		}
	}
	for v := 0; v < q.nvar; v++ {
		row := make([]int64, 1+q.nvar)
		row[1+v] = 1
		q.ineqs = append(q.ineqs, row)
	}
	return q
}

func (q *ilp) varU(j int) int { return j }

func (q *ilp) varW() int { return q.np }

func (q *ilp) varD(s, j int) int {
	return q.base[s] + j
}

func (q *ilp) varC(s, i int) int { return q.base[s] + q.nd + q.stmts[s].dim - 1 - i }

func (q *ilp) varC0(s int) int { return q.c0[s] }

func (q *ilp) add(eq bool, row []int64) {
	zero := true
	for _, v := range row[1:] {
		if v != 0 {
			zero = false
			break
		}
	}
	if zero {
		if row[0] < 0 || (eq && row[0] != 0) {
			q.ineqs = append(q.ineqs, row) // infeasible; keep it so
		}
		return
	}
	if !eq && row[0] >= 0 && allNonNeg(row[1:]) {
		return // implied by the variables' non-negativity
	}
	key := keyOf(eq, row)
	if q.seen[key] {
		return
	}
	q.seen[key] = true
	if eq {
		q.eqs = append(q.eqs, row)
	} else {
		q.ineqs = append(q.ineqs, row)
	}
}

// distance returns sign · h·f over the ILP variables, where f is the
// coefficient vector of phi_dst(t) - phi_src(s) and h a cone row.
func (q *ilp) distance(e *edge, h []int64, sign int64) []int64 {
	np, ns := q.np, q.stmts[e.src].dim
	row := make([]int64, 1+q.nvar)
	row[1+q.varC0(e.dst)] += sign * h[1]
	row[1+q.varC0(e.src)] -= sign * h[1]
	for j := 0; j < q.nd; j++ {
		row[1+q.varD(e.dst, j)] += sign * h[2+j]
		row[1+q.varD(e.src, j)] -= sign * h[2+j]
	}
	for i := 0; i < ns; i++ {
		row[1+q.varC(e.src, i)] -= sign * h[2+np+i]
	}
	for i := 0; i < q.stmts[e.dst].dim; i++ {
		row[1+q.varC(e.dst, i)] += sign * h[2+np+ns+i]
	}
	return row
}

// addLegal requires phi_dst(t) - phi_src(s) >= 0 on the dependence.
func (q *ilp) addLegal(e *edge, c *cone) {
	for _, h := range c.eqs {
		q.add(true, q.distance(e, h, 1))
	}
	for _, h := range c.ineqs {
		q.add(false, q.distance(e, h, 1))
	}
}

// addBound requires u·params + w - (phi_dst(t) - phi_src(s)) >= 0.
func (q *ilp) addBound(e *edge, c *cone) {
	bound := func(h []int64) []int64 {
		row := q.distance(e, h, -1)
		row[1+q.varW()] += h[1]
		for j := 0; j < q.np; j++ {
			row[1+q.varU(j)] += h[2+j]
		}
		return row
	}
	for _, h := range c.eqs {
		q.add(true, bound(h))
	}
	for _, h := range c.ineqs {
		q.add(false, bound(h))
	}
}

// addZero requires phi_dst(t) = phi_src(s) on the whole dependence.
func (q *ilp) addZero(e *edge, c *cone) {
	q.addLegal(e, c)
	for _, h := range c.eqs {
		q.add(true, q.distance(e, h, -1))
	}
	for _, h := range c.ineqs {
		q.add(false, q.distance(e, h, -1))
	}
}

// addIndependence makes statement s's new hyperplane linearly independent
// of its earlier ones, as Pluto does: with the rows r of a basis of the
// orthogonal complement of the earlier hyperplanes (each with its first
// non-zero entry positive), r·c >= 0 for each r and Σ r·c >= 1. This is
// sufficient, not necessary: it keeps the search in one orthant of the
// complement, which with non-negative coefficients is the useful one.
func (q *ilp) addIndependence(s int) {
	st := q.stmts[s]
	sum := make([]int64, 1+q.nvar)
	sum[0] = -1
	for _, r := range orthComplement(st.basis, st.dim) {
		row := make([]int64, 1+q.nvar)
		for i, v := range r {
			row[1+q.varC(s, i)] = v
			sum[1+q.varC(s, i)] += v
		}
		q.add(false, row)
	}
	q.add(false, sum)
}

// hyper reads statement s's hyperplane from a solution.
func (q *ilp) hyper(sol []int64, s int) hyper {
	st := q.stmts[s]
	h := hyper{c: make([]int64, st.dim), d: make([]int64, q.np), c0: sol[q.varC0(s)]}
	for j := 0; j < q.nd; j++ {
		h.d[j] = sol[q.varD(s, j)]
	}
	for i := range h.c {
		h.c[i] = sol[q.varC(s, i)]
	}
	return h
}

func keyOf(eq bool, row []int64) string {
	b := make([]byte, 0, 8*len(row)+1)
	if eq {
		b = append(b, '=')
	}
	for _, v := range row {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
	}
	return string(b)
}
