package presburger

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// The Farkas coefficient set of a polyhedron (isl_set_coefficients): the
// affine forms non-negative on it, by which an affine scheduler states
// that dependences are satisfied.

// Coefficients returns the Farkas coefficient set of s (isl_set_coefficients):
// the vectors [c0, cp..., cx...] (constant, one per parameter, one per set
// dimension; a set without parameters) such that c0 + cp·p + cx·x >= 0 for
// every point (p, x) of s. Parameters are treated as variables.
//
// The set is computed for the rational relaxation of each basic set, with
// its locals projected out rationally (the local definitions are kept as
// constraints first): the relaxation is larger, so every vector returned is
// valid for s, though a vector valid only on the integer points may be
// missing. Integer-empty basic sets are skipped, so an empty s gives the
// universe. The result is a polyhedral cone, computed by eliminating the
// Farkas multipliers exactly over the rationals: Gaussian elimination on
// the equalities, then Fourier-Motzkin with Chernikov's rule and simplex
// redundancy removal.
func (s Set) Coefficients() (res Set, err error) {
	return s.CoefficientsWithin(nil)
}

// CoefficientsWithin is Coefficients spending at most w's operations (nil:
// only the library's limit); see RowsWork.
func (s Set) CoefficientsWithin(w *RowsWork) (res Set, err error) {
	defer catch(&err)
	sp := s.r.space
	if sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: Coefficients of %s: want a set", sp)
	}
	bud := w.budget()
	defer w.charge(bud, bud.Ops)
	nv := sp.NParam() + sp.NOut()
	names := make([]string, 1+nv)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
	}
	out := SetSpace(nil, NewTuple("", names...))
	var eqs, ineqs [][]int64
	for _, b := range s.r.with(bud).parts {
		if b.isEmpty() {
			continue
		}
		e, in := b.coefficients()
		eqs, ineqs = append(eqs, e...), append(ineqs, in...)
	}
	eqs, ineqs = reduceCone(eqs, ineqs, 1+nv, &bud.Budget)
	c := newUniverse(0, 0, 1+nv)
	c.bud = bud
	c.eqs, c.ineqs = eqs, ineqs
	return Set{relFromBasic(out, c.simplify())}, nil
}

// Coefficients returns the coefficient set of the wrapped map: vectors
// [c0, cp..., cin..., cout...].
func (m Map) Coefficients() (Set, error) {
	return m.CoefficientsWithin(nil)
}

// CoefficientsWithin is Coefficients spending at most w's operations.
func (m Map) CoefficientsWithin(w *RowsWork) (Set, error) {
	s, err := m.Wrap()
	if err != nil {
		return Set{}, err
	}
	return s.CoefficientsWithin(w)
}

// coefficients computes the cone of b's rational relaxation, rows over
// [0, c0, c1..c_nVar] (homogeneous).
//
// Farkas: c0 + c·x >= 0 on {x : E x + e = 0, A x + a >= 0} (non-empty) iff
// c = Eᵀμ + Aᵀλ and c0 = λ0 + eᵀμ + aᵀλ for some μ, λ >= 0, λ0 >= 0. With
// λ0 eliminated at once that is a system over (c, μ, λ) whose projection
// onto c is the cone. Locals get no c: their columns only bind multipliers.
func (b *basic) coefficients() (eqs, ineqs [][]int64) {
	pe, pi := b.system()
	nx := b.nSolverVars()
	red, impl, _ := simplex.Reduce(pe, pi, nx, b.solver())
	pe = append([][]int64(nil), pe...)
	var keep [][]int64
	for i, row := range pi {
		switch {
		case impl[i]:
			pe = append(pe, row)
		case !red[i]:
			keep = append(keep, row)
		}
	}
	pi = keep
	nc := 1 + b.nVar()
	nm, nl := len(pe), len(pi)
	width := 1 + nc + nm + nl
	f := &fmSystem{nKeep: nc, bud: b.solver()}
	for j := 1; j <= nx; j++ {
		row := make([]int64, width)
		if j < nc {
			row[1+j] = 1
		}
		for l, e := range pe {
			row[1+nc+l] = arith.Neg(e[j])
		}
		for k, in := range pi {
			row[1+nc+nm+k] = arith.Neg(in[j])
		}
		f.eqs = append(f.eqs, row)
	}
	row := make([]int64, width)
	row[1] = 1
	for l, e := range pe {
		row[1+nc+l] = arith.Neg(e[0])
	}
	for k, in := range pi {
		row[1+nc+nm+k] = arith.Neg(in[0])
	}
	f.ineqs = append(f.ineqs, row)
	for k := range pi {
		row := make([]int64, width)
		row[1+nc+nm+k] = 1
		f.ineqs = append(f.ineqs, row)
	}
	f.eliminate()
	eqs, ineqs = make([][]int64, len(f.eqs)), make([][]int64, len(f.ineqs))
	for i, r := range f.eqs {
		eqs[i] = r[:1+nc]
	}
	for i, r := range f.ineqs {
		ineqs[i] = r[:1+nc]
	}
	return eqs, ineqs
}

// fmSystem is a homogeneous system over [0, kept..., eliminated...]; the
// columns after the first nKeep variables are projected out rationally.
type fmSystem struct {
	nKeep      int
	eqs, ineqs [][]int64
	hist       [][]uint64 // Chernikov histories of ineqs
	bud        *simplex.Budget
}

func (f *fmSystem) eliminate() {
	first := 1 + f.nKeep
	width := len(f.ineqs[0])
	// Gaussian elimination of the eliminated columns through the equalities.
	for {
		ei, col := -1, -1
		for i, e := range f.eqs {
			for j := first; j < width; j++ {
				if e[j] != 0 && (col < 0 || arith.AbsInt(e[j]) < arith.AbsInt(f.eqs[ei][col])) {
					ei, col = i, j
				}
			}
			if col >= 0 && arith.AbsInt(f.eqs[ei][col]) == 1 {
				break
			}
		}
		if ei < 0 {
			break
		}
		e := f.eqs[ei]
		f.eqs = append(f.eqs[:ei:ei], f.eqs[ei+1:]...)
		for i := range f.eqs {
			f.eqs[i] = combineOut(f.eqs[i], e, col)
		}
		for i := range f.ineqs {
			f.ineqs[i] = combineOut(f.ineqs[i], e, col)
		}
	}
	f.tidy()
	f.hist = make([][]uint64, len(f.ineqs))
	words := (len(f.ineqs) + 63) / 64
	for i := range f.ineqs {
		f.hist[i] = make([]uint64, words)
		f.hist[i][i/64] |= 1 << (i % 64)
	}
	// Fourier-Motzkin on what is left, cheapest column first.
	for done := 1; ; done++ {
		col, best := -1, 0
		for j := first; j < width; j++ {
			pos, neg := 0, 0
			for _, r := range f.ineqs {
				switch {
				case r[j] > 0:
					pos++
				case r[j] < 0:
					neg++
				}
			}
			if pos+neg == 0 {
				continue
			}
			if cost := pos*neg - pos - neg; col < 0 || cost < best {
				col, best = j, cost
			}
		}
		if col < 0 {
			return
		}
		f.fmStep(col, done)
		if len(f.ineqs) > 8*width {
			f.dropRedundant()
		}
	}
}

// combineOut eliminates column col from r with the equality e.
func combineOut(r, e []int64, col int) []int64 {
	if r[col] == 0 {
		return r
	}
	a, b := arith.AbsInt(e[col]), r[col]
	if e[col] < 0 {
		b = arith.Neg(b)
	}
	out := make([]int64, len(r))
	for j := range r {
		out[j] = arith.Sub(arith.Mul(a, r[j]), arith.Mul(b, e[j]))
	}
	return normalizeHom(out)
}

// fmStep eliminates column col; done is the number of columns eliminated
// by Fourier-Motzkin so far, this one included (Chernikov's bound).
func (f *fmSystem) fmStep(col, done int) {
	var pos, neg, rows [][]int64
	var posH, negH, hist [][]uint64
	for i, r := range f.ineqs {
		switch {
		case r[col] > 0:
			pos, posH = append(pos, r), append(posH, f.hist[i])
		case r[col] < 0:
			neg, negH = append(neg, r), append(negH, f.hist[i])
		default:
			rows, hist = append(rows, r), append(hist, f.hist[i])
		}
	}
	for i, p := range pos {
		for k, n := range neg {
			h := coeffOr(posH[i], negH[k])
			if coeffPop(h) > done+1 {
				continue
			}
			a, b := arith.Neg(n[col]), p[col]
			out := make([]int64, len(p))
			for j := range p {
				out[j] = arith.Add(arith.Mul(a, p[j]), arith.Mul(b, n[j]))
			}
			f.spend()
			rows, hist = append(rows, normalizeHom(out)), append(hist, h)
		}
	}
	f.ineqs, f.hist = rows, hist
	f.tidy()
}

// spend charges one combination to the operation budget.
func (f *fmSystem) spend() {
	if f.bud == nil {
		return
	}
	if f.bud.Ops--; f.bud.Ops < 0 {
		panic(simplex.BudgetExceeded{})
	}
}

// tidy drops zero and duplicate inequalities (keeping the shortest history).
func (f *fmSystem) tidy() {
	seen := map[string]int{}
	var rows [][]int64
	var hist [][]uint64
	for i, r := range f.ineqs {
		if arith.GCDVec(r) == 0 {
			continue
		}
		k := coeffKey(r)
		if at, ok := seen[k]; ok {
			if f.hist != nil && coeffPop(f.hist[i]) < coeffPop(hist[at]) {
				hist[at] = f.hist[i]
			}
			continue
		}
		seen[k] = len(rows)
		rows = append(rows, r)
		if f.hist != nil {
			hist = append(hist, f.hist[i])
		}
	}
	f.ineqs = rows
	if f.hist != nil {
		f.hist = hist
	}
}

// dropRedundant removes inequalities implied by the others (simplex).
func (f *fmSystem) dropRedundant() {
	n := len(f.ineqs[0]) - 1
	red, _, empty := simplex.Reduce(f.eqs, f.ineqs, n, f.bud)
	if empty {
		return
	}
	var rows [][]int64
	var hist [][]uint64
	for i, r := range f.ineqs {
		if !red[i] {
			rows, hist = append(rows, r), append(hist, f.hist[i])
		}
	}
	f.ineqs, f.hist = rows, hist
}

// reduceCone normalises, deduplicates and removes redundant rows of a
// homogeneous system over n variables.
func reduceCone(eqs, ineqs [][]int64, n int, bud *simplex.Budget) ([][]int64, [][]int64) {
	f := &fmSystem{eqs: eqs, ineqs: ineqs, bud: bud}
	for i := range f.ineqs {
		f.ineqs[i] = normalizeHom(f.ineqs[i])
	}
	f.tidy()
	if len(f.ineqs) == 0 {
		return f.eqs, nil
	}
	red, impl, empty := simplex.Reduce(f.eqs, f.ineqs, n, bud)
	if empty {
		return f.eqs, f.ineqs
	}
	out := append([][]int64(nil), f.eqs...)
	var keep [][]int64
	for i, r := range f.ineqs {
		switch {
		case impl[i]:
			out = append(out, r)
		case !red[i]:
			keep = append(keep, r)
		}
	}
	return out, keep
}

// normalizeHom divides a homogeneous row by the gcd of its entries.
func normalizeHom(r []int64) []int64 {
	if g := arith.GCDVec(r); g > 1 {
		for j := range r {
			r[j] /= g
		}
	}
	return r
}

func coeffKey(r []int64) string {
	var b strings.Builder
	for _, v := range r {
		b.WriteString(strconv.FormatInt(v, 10))
		b.WriteByte(',')
	}
	return b.String()
}

func coeffOr(a, b []uint64) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] | b[i]
	}
	return out
}

func coeffPop(h []uint64) int {
	n := 0
	for _, w := range h {
		n += bits.OnesCount64(w)
	}
	return n
}
