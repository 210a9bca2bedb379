package ast

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// aff is a quasi-affine expression during generation: a constant, integer
// coefficients of the parameters (by index in the generator's parameter
// list) and of the schedule dimensions c0, c1, ..., and floor divisions
// of such expressions. It is normalised: no zero coefficients at the end
// of p and c, div terms merged and simplified (see addDiv).
type aff struct {
	k    int64
	p    []int64
	c    []int64
	divs []divTerm
}

// divTerm is coef * floor(num / den), den >= 2. exact marks a division
// known to have no remainder where it is evaluated (the value of a
// degenerate dimension from an equality), printed as a plain division.
type divTerm struct {
	coef  int64
	num   aff
	den   int64
	exact bool
}

// errOverflow is raised (as a panic) by checked arithmetic and turned into
// an error by Generate.
var errOverflow = errors.New("ast: integer overflow in an expression")

type overflowPanic struct{}

func mustAdd(a, b int64) int64 {
	s := a + b
	if (s > a) != (b > 0) {
		panic(overflowPanic{})
	}
	return s
}

func mustMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo > 1<<63-1 || a == -1<<63 || b == -1<<63 {
		panic(overflowPanic{})
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func gcd(a, b int64) int64 {
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func constAff(k int64) aff { return aff{k: k} }

// dimAff is the dimension c_i.
func dimAff(i int) aff {
	c := make([]int64, i+1)
	c[i] = 1
	return aff{c: c}
}

func at(v []int64, i int) int64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

func addVec(a, b []int64, kb int64) []int64 {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := range out {
		out[i] = mustAdd(at(a, i), mustMul(kb, at(b, i)))
	}
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// plus returns a + kb*b.
func (a aff) plus(b aff, kb int64) aff {
	out := aff{k: mustAdd(a.k, mustMul(kb, b.k)), p: addVec(a.p, b.p, kb), c: addVec(a.c, b.c, kb)}
	out.divs = append(out.divs, a.divs...)
	for _, d := range b.divs {
		out = out.addDivX(mustMul(kb, d.coef), d.num, d.den, d.exact)
	}
	if len(b.divs) == 0 {
		return out
	}
	return out.withDivs(out.divs)
}

func (a aff) scale(k int64) aff { return aff{}.plus(a, k) }

// withDivs returns a with its div terms replaced by the given ones, merged.
func (a aff) withDivs(divs []divTerm) aff {
	a.divs = nil
	for _, d := range divs {
		a = a.addDivX(d.coef, d.num, d.den, d.exact)
	}
	return a
}

// addDiv returns a + coef*floor(num/den), simplifying the division: the
// multiples of den among num's coefficients move out of it, a common
// factor of what remains and den is cancelled, and a division without
// variables is folded.
func (a aff) addDiv(coef int64, num aff, den int64) aff { return a.addDivX(coef, num, den, false) }

// addDivX is addDiv with the exactness of the division.
func (a aff) addDivX(coef int64, num aff, den int64, exact bool) aff {
	if coef == 0 {
		return a
	}
	// Move whole multiples of den out of the variable coefficients.
	q := aff{}
	rest := aff{k: num.k}
	rest.p, q.p = splitVec(num.p, den)
	rest.c, q.c = splitVec(num.c, den)
	for _, d := range num.divs {
		if r := d.coef % den; r != 0 {
			rest.divs = append(rest.divs, divTerm{coef: r, num: d.num, den: d.den, exact: d.exact})
		}
		if t := d.coef / den; t != 0 {
			q.divs = append(q.divs, divTerm{coef: t, num: d.num, den: d.den, exact: d.exact})
		}
	}
	a = a.plus(q.withDivs(q.divs), coef)
	g := den
	for _, v := range rest.p {
		g = gcd(g, v)
	}
	for _, v := range rest.c {
		g = gcd(g, v)
	}
	for _, d := range rest.divs {
		g = gcd(g, d.coef)
	}
	if len(rest.p) == 0 && len(rest.c) == 0 && len(rest.divs) == 0 {
		a.k = mustAdd(a.k, mustMul(coef, floorDiv(rest.k, den)))
		return a
	}
	if g > 1 {
		rest.k = floorDiv(rest.k, g)
		for i := range rest.p {
			rest.p[i] /= g
		}
		for i := range rest.c {
			rest.c[i] /= g
		}
		for i := range rest.divs {
			rest.divs[i].coef /= g
		}
		den /= g
	}
	if den == 1 {
		return a.plus(rest, coef)
	}
	key := rest.key()
	divs := append([]divTerm(nil), a.divs...)
	for i, d := range divs {
		if d.den == den && d.num.key() == key {
			divs[i].coef = mustAdd(d.coef, coef)
			divs[i].exact = d.exact && exact
			if divs[i].coef == 0 {
				divs = append(divs[:i], divs[i+1:]...)
			}
			a.divs = divs
			return a
		}
	}
	a.divs = append(divs, divTerm{coef: coef, num: rest, den: den, exact: exact})
	return a
}

// splitVec splits v into the remainders of its entries by den (truncated,
// so they keep their sign) and the quotients.
func splitVec(v []int64, den int64) (rem, quo []int64) {
	rem = make([]int64, len(v))
	quo = make([]int64, len(v))
	for i, x := range v {
		rem[i], quo[i] = x%den, x/den
	}
	return addVec(rem, nil, 0), addVec(quo, nil, 0)
}

func (a aff) isConst() bool { return len(a.p) == 0 && len(a.c) == 0 && len(a.divs) == 0 }

func (a aff) equal(b aff) bool {
	// Structural, with key's meaning (exact is not compared): formatting
	// keys made deduplicating many bounds quadratic in fmt.
	if a.k != b.k || !slices.Equal(a.p, b.p) || !slices.Equal(a.c, b.c) || len(a.divs) != len(b.divs) {
		return false
	}
	for i, d := range a.divs {
		e := b.divs[i]
		if d.coef != e.coef || d.den != e.den || !d.num.equal(e.num) {
			return false
		}
	}
	return true
}

// key is a canonical text of a, for comparisons.
func (a aff) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%v|%v", a.k, a.p, a.c)
	for _, d := range a.divs {
		fmt.Fprintf(&b, "|%d*[%s]/%d", d.coef, d.num.key(), d.den)
	}
	return b.String()
}

// usesDim reports whether a depends on dimension i.
func (a aff) usesDim(i int) bool {
	if at(a.c, i) != 0 {
		return true
	}
	for _, d := range a.divs {
		if d.num.usesDim(i) {
			return true
		}
	}
	return false
}

// maxDim is the largest dimension a depends on, -1 for none.
func (a aff) maxDim() int {
	m := len(a.c) - 1
	for _, d := range a.divs {
		m = max(m, d.num.maxDim())
	}
	return m
}

// subst replaces dimension i by v.
func (a aff) subst(i int, v aff) aff {
	if !a.usesDim(i) {
		return a
	}
	k := at(a.c, i)
	b := a
	b.c = addVec(a.c, dimAff(i).c, -k)
	b.divs = nil
	b = b.plus(v, k)
	for _, d := range a.divs {
		b = b.addDivX(d.coef, d.num.subst(i, v), d.den, d.exact)
	}
	return b
}

// negCount counts the negative coefficients of a, for choosing the more
// readable of two equivalent forms.
func (a aff) negCount() int {
	n := 0
	for _, v := range append(append([]int64{a.k}, a.p...), a.c...) {
		if v < 0 {
			n++
		}
	}
	for _, d := range a.divs {
		if d.coef < 0 {
			n++
		}
	}
	return n
}

// expr turns a into an expression: iterators (outermost first), then
// parameters, then divisions, then the constant, with a positive term
// first where there is one. Degenerate dimensions must have been
// substituted already (gen.resolve).
func (a aff) expr(g *names) Expr {
	var terms []Expr
	for i, v := range a.c {
		if v != 0 {
			terms = append(terms, Mul(v, g.dim(i)))
		}
	}
	for i, v := range a.p {
		if v != 0 {
			terms = append(terms, Mul(v, Var(g.params[i])))
		}
	}
	for _, d := range a.divs {
		neg := d.num.scale(-1)
		if d.exact {
			terms = append(terms, Mul(d.coef, Div(d.num.expr(g), d.den)))
			continue
		}
		if d.coef < 0 && neg.negCount() <= d.num.negCount() {
			// -k*floor(x/d) = k*ceil(-x/d)
			terms = append(terms, Mul(-d.coef, CeilDiv(neg.expr(g), d.den)))
			continue
		}
		terms = append(terms, Mul(d.coef, FloorDiv(d.num.expr(g), d.den)))
	}
	for i, t := range terms {
		if neg, _ := negated(t); !neg {
			if i > 0 {
				terms = append([]Expr{t}, append(terms[:i:i], terms[i+1:]...)...)
			}
			break
		}
	}
	terms = append(terms, Int(a.k))
	return Add(terms...)
}

// names gives the expressions of the parameters and dimensions.
type names struct {
	params []string
	dims   []Expr // the iterator of each dimension
}

func (g *names) dim(i int) Expr {
	if i < len(g.dims) {
		return g.dims[i]
	}
	return Var(fmt.Sprintf("?c%d", i))
}

func floorMod(a, d int64) int64 { return a - d*floorDiv(a, d) }
