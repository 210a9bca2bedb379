package deps

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// prog describes a test program compactly. References are written as
// text, "A[i + 1, 2*j - N]", with affine subscripts over the iterators
// and parameters, or a data-dependent subscript "@B[i]" (a read of B cast
// to i32, making the access a may-access).
type prog struct {
	name    string
	params  []string
	context string
	arrays  []arr
	stmts   []stm
}

type arr struct {
	name    string
	typ     scop.ElemType
	extent  []string
	in, out bool
}

// stm is one statement: write = sum of reads (or 0).
type stm struct {
	name, domain, sched string
	write               string
	reads               []string
}

// build makes the scop.Program and calls Finish.
func (d prog) build(tb testing.TB) *scop.Program {
	tb.Helper()
	p, err := d.program()
	if err != nil {
		tb.Fatalf("%s: %v", d.name, err)
	}
	return p
}

func (d prog) program() (*scop.Program, error) {
	ctx, err := presburger.ParseSet(d.context)
	if err != nil {
		return nil, err
	}
	p := &scop.Program{Name: d.name, Params: d.params, Context: ctx}
	types := map[string]scop.ElemType{}
	for _, a := range d.arrays {
		sc := &refScanner{params: d.params, types: types}
		var ext []scop.Expr
		for _, e := range a.extent {
			sc.src, sc.pos = e, 0
			x, err := sc.expr()
			if err != nil {
				return nil, err
			}
			ext = append(ext, x)
		}
		types[a.name] = a.typ
		p.Arrays = append(p.Arrays, &scop.Array{Name: a.name, Type: a.typ, Extent: ext, LiveIn: a.in, LiveOut: a.out})
	}
	for _, s := range d.stmts {
		st, err := d.stmt(s, types)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		p.Stmts = append(p.Stmts, st)
	}
	return p, p.Finish()
}

func (d prog) stmt(s stm, types map[string]scop.ElemType) (*scop.Stmt, error) {
	dom, err := presburger.ParseSet(s.domain)
	if err != nil {
		return nil, err
	}
	sched, err := presburger.ParseMap(s.sched)
	if err != nil {
		return nil, err
	}
	iters := dom.Space().Out.Dims
	sc := &refScanner{iters: iters, params: d.params, types: types}
	w, err := sc.parseRef(s.write)
	if err != nil {
		return nil, err
	}
	mayWrite := sc.dataDependent
	t := types[w.Array]
	var val scop.Expr = &scop.Const{T: t}
	for i, r := range s.reads {
		ref, err := sc.parseRef(r)
		if err != nil {
			return nil, err
		}
		var x scop.Expr = &scop.Read{Ref: ref, T: types[ref.Array]}
		if types[ref.Array] != t {
			x = &scop.Cast{X: x, T: t}
		}
		if i == 0 {
			val = x
		} else {
			val = &scop.Binary{Op: scop.Add, X: val, Y: x, T: t}
		}
	}
	return &scop.Stmt{Name: s.name, Iters: iters, Domain: dom, Schedule: sched,
		Write: w, Value: val, MayWrite: mayWrite}, nil
}

// refScanner parses references and affine subscripts.
type refScanner struct {
	src           string
	pos           int
	iters, params []string
	types         map[string]scop.ElemType
	dataDependent bool // the last parseRef had a data-dependent subscript
}

func (sc *refScanner) parseRef(src string) (scop.Ref, error) {
	sc.src, sc.pos, sc.dataDependent = src, 0, false
	r, err := sc.ref()
	if err == nil && sc.peek() != 0 {
		err = fmt.Errorf("trailing text in %q", src)
	}
	return r, err
}

func (sc *refScanner) peek() byte {
	for sc.pos < len(sc.src) && sc.src[sc.pos] == ' ' {
		sc.pos++
	}
	if sc.pos == len(sc.src) {
		return 0
	}
	return sc.src[sc.pos]
}

func (sc *refScanner) expect(c byte) error {
	if sc.peek() != c {
		return fmt.Errorf("expected %q at %d in %q", c, sc.pos, sc.src)
	}
	sc.pos++
	return nil
}

func (sc *refScanner) word() string {
	sc.peek()
	start := sc.pos
	for sc.pos < len(sc.src) && (unicode.IsLetter(rune(sc.src[sc.pos])) || unicode.IsDigit(rune(sc.src[sc.pos])) || sc.src[sc.pos] == '_') {
		sc.pos++
	}
	return sc.src[start:sc.pos]
}

func (sc *refScanner) ref() (scop.Ref, error) {
	r := scop.Ref{Array: sc.word()}
	if err := sc.expect('['); err != nil {
		return r, err
	}
	for sc.peek() != ']' {
		x, err := sc.expr()
		if err != nil {
			return r, err
		}
		r.Index = append(r.Index, x)
		if sc.peek() == ',' {
			sc.pos++
		}
	}
	return r, sc.expect(']')
}

func (sc *refScanner) expr() (scop.Expr, error) {
	var sum scop.Expr
	sign := int64(1)
	for {
		if sc.peek() == '-' {
			sc.pos++
			sign = -sign
		}
		t, err := sc.term(sign)
		if err != nil {
			return nil, err
		}
		if sum == nil {
			sum = t
		} else {
			sum = &scop.Binary{Op: scop.Add, X: sum, Y: t, T: scop.I32}
		}
		switch sc.peek() {
		case '+':
			sign = 1
		case '-':
			sign = -1
		default:
			return sum, nil
		}
		sc.pos++
	}
}

// term is [int '*'] factor or int, scaled by sign.
func (sc *refScanner) term(sign int64) (scop.Expr, error) {
	coef := sign
	if c := sc.peek(); c >= '0' && c <= '9' {
		n, err := strconv.ParseInt(sc.word(), 10, 64)
		if err != nil {
			return nil, err
		}
		coef *= n
		if sc.peek() != '*' {
			return &scop.Const{T: scop.I32, I: coef}, nil
		}
		sc.pos++
	}
	f, err := sc.factor()
	if err != nil || coef == 1 {
		return f, err
	}
	return &scop.Binary{Op: scop.Mul, X: &scop.Const{T: scop.I32, I: coef}, Y: f, T: scop.I32}, nil
}

func (sc *refScanner) factor() (scop.Expr, error) {
	if sc.peek() == '@' {
		sc.pos++
		r, err := sc.ref()
		if err != nil {
			return nil, err
		}
		sc.dataDependent = true
		return &scop.Cast{X: &scop.Read{Ref: r, T: sc.types[r.Array]}, T: scop.I32}, nil
	}
	name := sc.word()
	if i := slices.Index(sc.iters, name); i >= 0 {
		return &scop.Iter{Name: name, Index: i, T: scop.I32}, nil
	}
	if slices.Contains(sc.params, name) {
		return &scop.Param{Name: name, T: scop.I32}, nil
	}
	return nil, fmt.Errorf("unknown name %q in %q", name, strings.TrimSpace(sc.src))
}

// relation is what the tests compare: presburger values that know
// equality and print in isl notation.
type relation[T any] interface {
	IsEqual(T) (bool, error)
	String() string
}

// checkEqual compares got with the isl text want by presburger equality.
func checkEqual[T relation[T]](t *testing.T, name string, got T, want string, parse func(string) (T, error)) {
	t.Helper()
	w, err := parse(want)
	if err != nil {
		t.Fatalf("%s: parsing %q: %v", name, want, err)
	}
	eq, err := got.IsEqual(w)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !eq {
		t.Errorf("%s:\n got %v\nwant %v", name, got, w)
	}
}
