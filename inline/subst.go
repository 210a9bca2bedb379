package inline

import (
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// offsetIter is a write subscript iterator + constant.
type offsetIter struct {
	iter  int
	delta int64
}

// writePermutation returns, per write subscript, the iterator it names
// and its constant offset, when the subscripts name every iterator once
// and nothing else.
func writePermutation(s *scop.Stmt) ([]offsetIter, bool) {
	if len(s.Write.Index) != len(s.Iters) {
		return nil, false
	}
	if !oneToOne(s.Write.Index, len(s.Iters)) {
		return nil, false
	}
	out := make([]offsetIter, len(s.Write.Index))
	for k, x := range s.Write.Index {
		out[k], _ = iterPlusConst(x)
	}
	return out, true
}

// iterPlusConst matches an integer iterator plus a constant, written
// with any nesting of + and - (what substitution itself produces).
func iterPlusConst(e scop.Expr) (offsetIter, bool) {
	it, c, ok := linear(e)
	if !ok || it == nil {
		return offsetIter{}, false
	}
	return offsetIter{iter: it.Index, delta: c}, true
}

// linear reads e as it + c or as the constant c (it nil).
func linear(e scop.Expr) (it *scop.Iter, c int64, ok bool) {
	switch e := e.(type) {
	case *scop.Iter:
		return e, 0, e.T.IsInt()
	case *scop.Binary:
		if e.Op != scop.Add && e.Op != scop.Sub {
			break
		}
		xi, xc, ok := linear(e.X)
		if !ok {
			break
		}
		yi, yc, ok := linear(e.Y)
		if !ok || yi != nil && (xi != nil || e.Op == scop.Sub) {
			break
		}
		if e.Op == scop.Sub {
			return xi, xc - yc, true
		}
		if yi != nil {
			xi = yi
		}
		return xi, xc + yc, true
	}
	if c, ok := scop.ConstInt(e); ok && e.Type().IsInt() {
		return nil, c, true
	}
	return nil, 0, false
}

// plus returns e + c, folding into e when it is an iterator plus a
// constant.
func plus(e scop.Expr, c int64) scop.Expr {
	if it, k, ok := linear(e); ok && it != nil {
		e, c = it, k+c
	} else if c == 0 {
		return e
	}
	switch {
	case c > 0:
		return &scop.Binary{At: e.Position(), Op: scop.Add, X: e, Y: &scop.Const{At: e.Position(), T: e.Type(), I: c}, T: e.Type()}
	case c < 0:
		return &scop.Binary{At: e.Position(), Op: scop.Sub, X: e, Y: &scop.Const{At: e.Position(), T: e.Type(), I: -c}, T: e.Type()}
	}
	return e
}

// readsArray reports whether e reads array.
func readsArray(e scop.Expr, array string) bool {
	for _, r := range scop.Reads(e) {
		if r.Array == array {
			return true
		}
	}
	return false
}

// distinctReads returns the reads of array in s (in its value and write
// subscripts), one per distinct subscript list: code generation evaluates
// reads of one element once.
func distinctReads(s *scop.Stmt, array string) []*scop.Read {
	seen := map[string]bool{}
	var out []*scop.Read
	collect := func(e scop.Expr) {
		for _, r := range scop.Reads(e) {
			if r.Array == array && !seen[r.String()] {
				seen[r.String()] = true
				out = append(out, r)
			}
		}
	}
	collect(s.Value)
	for _, x := range s.Write.Index {
		collect(x)
	}
	return out
}

// readWeight bounds how many instances of s read each element through r:
// a subscript a*i + c (a nonzero) reads a new element per instance along
// i, one floor((i + c)/k) the same element k times; an iterator no
// subscript names multiplies the weight by its extent in s's domain,
// which must be a constant of at most maxExtent. bounded is false
// otherwise (a reduction's broadcast, a modulo, a non-affine subscript).
func readWeight(s *scop.Stmt, r *scop.Read) (w int, bounded bool, err error) {
	named := make([]bool, len(s.Iters))
	w = 1
	for _, x := range r.Index {
		k := int64(1)
		if d, ok := x.(*scop.Binary); ok && d.Op == scop.FloorDiv {
			if c, ok := scop.ConstInt(d.Y); ok && c > 0 && c <= 1<<10 {
				x, k = d.X, c
			}
		}
		it, ok := scaledIter(x)
		if !ok {
			return 0, false, nil
		}
		if it == nil {
			continue // a constant subscript
		}
		if it.Index < 0 || it.Index >= len(named) || named[it.Index] {
			return 0, false, nil
		}
		named[it.Index] = true
		w *= int(k)
	}
	for i, ok := range named {
		if ok {
			continue
		}
		// Every instance along an iterator the read does not name reads
		// the same element: a constant extent (the channels of an image
		// reading its alpha plane) multiplies the weight, any other leaves
		// it unbounded.
		n, ok, err := constantExtent(s.Domain, i)
		if err != nil || !ok {
			return 0, false, err
		}
		w *= int(n)
	}
	return w, true, nil
}

// scaledIter returns the iterator of e when e is a nonzero integer
// multiple of one iterator plus a constant (2x - 1: each element is read
// at one value of x at most), nil when e is a constant; false otherwise.
func scaledIter(e scop.Expr) (*scop.Iter, bool) {
	var it *scop.Iter
	var walk func(e scop.Expr) bool
	walk = func(e scop.Expr) bool {
		switch e := e.(type) {
		case *scop.Iter:
			if it != nil || !e.T.IsInt() {
				return false
			}
			it = e
			return true
		case *scop.Binary:
			switch e.Op {
			case scop.Add, scop.Sub:
				return walk(e.X) && walk(e.Y)
			case scop.Mul:
				if c, ok := scop.ConstInt(e.Y); ok && c != 0 {
					return walk(e.X)
				}
				if c, ok := scop.ConstInt(e.X); ok && c != 0 {
					return walk(e.Y)
				}
				return false
			}
		}
		_, ok := scop.ConstInt(e)
		return ok && e.Type().IsInt()
	}
	if !walk(e) {
		return nil, false
	}
	return it, true
}

// maxExtent bounds the extents constantExtent reports.
const maxExtent = 64

// constantExtent returns the number of values dimension k of dom takes
// when its minimum and maximum are the same constants for every value of
// the parameters and the extent is at most maxExtent; false otherwise.
func constantExtent(dom presburger.Set, k int) (int64, bool, error) {
	lo, err := dom.DimMin(k)
	if err != nil {
		return 0, false, err
	}
	hi, err := dom.DimMax(k)
	if err != nil {
		return 0, false, err
	}
	l, okl := constantValue(lo)
	h, okh := constantValue(hi)
	if !okl || !okh || h < l || h-l >= maxExtent {
		return 0, false, nil
	}
	return h - l + 1, true, nil
}

// constantValue returns the value of the one-dimensional pf when every
// piece gives the same constant.
func constantValue(pf presburger.PwMultiAff) (int64, bool) {
	var v int64
	for i, pc := range pf.Pieces {
		if len(pc.Aff.Divs) > 0 || len(pc.Aff.Rows) != 1 || len(pc.Aff.Rows[0]) == 0 {
			return 0, false
		}
		row := pc.Aff.Rows[0]
		for _, c := range row[1:] {
			if c != 0 {
				return 0, false
			}
		}
		if i > 0 && row[0] != v {
			return 0, false
		}
		v = row[0]
	}
	return v, len(pf.Pieces) > 0
}

// oneToOne reports whether subscripts name each of n iterators once, each
// plus a constant.
func oneToOne(subscripts []scop.Expr, n int) bool {
	if len(subscripts) != n {
		return false
	}
	seen := make([]bool, n)
	for _, x := range subscripts {
		it, ok := iterPlusConst(x)
		if !ok || it.iter < 0 || it.iter >= n || seen[it.iter] {
			return false
		}
		seen[it.iter] = true
	}
	return true
}

// substitute replaces every read of array in e by body, the value of the
// statement that wrote the element: the statement's iterators become the
// read's subscripts less the write's offsets.
func substitute(e scop.Expr, array string, body scop.Expr, perm []offsetIter) scop.Expr {
	return scop.Rewrite(e, func(x scop.Expr) scop.Expr {
		r, ok := x.(*scop.Read)
		if !ok || r.Array != array {
			return nil
		}
		iters := make(map[int]scop.Expr, len(perm))
		for k, p := range perm {
			iters[p.iter] = plus(r.Index[k], -p.delta)
		}
		v := scop.Rewrite(body, func(y scop.Expr) scop.Expr {
			it, ok := y.(*scop.Iter)
			if !ok {
				return nil
			}
			v := iters[it.Index]
			if v.Type() != it.T {
				v = &scop.Cast{At: it.At, X: v, T: it.T}
			}
			return v
		})
		if v.Type() != r.T {
			v = &scop.Cast{At: r.At, X: v, T: r.T}
		}
		return foldSelects(v)
	})
}

// foldSelects replaces each selection of e whose condition compares
// integer constants by the branch it chooses, the only one evaluated
// anyway: a stage defined per channel (c < 3 ? colour : alpha) read at
// a constant channel.
func foldSelects(e scop.Expr) scop.Expr {
	return scop.Rewrite(e, func(x scop.Expr) scop.Expr {
		s, ok := x.(*scop.Select)
		if !ok {
			return nil
		}
		v, ok := constCondition(s.Cond)
		switch {
		case !ok:
			return nil
		case v:
			return foldSelects(s.Then)
		default:
			return foldSelects(s.Else)
		}
	})
}

// constCondition evaluates a comparison of integer constants, or a
// conjunction or disjunction of such.
func constCondition(e scop.Expr) (value, ok bool) {
	b, isBin := e.(*scop.Binary)
	if !isBin {
		return false, false
	}
	if b.Op.IsLogical() {
		x, okx := constCondition(b.X)
		y, oky := constCondition(b.Y)
		if !okx || !oky {
			return false, false
		}
		if b.Op == scop.And {
			return x && y, true
		}
		return x || y, true
	}
	x, okx := scop.ConstInt(b.X)
	y, oky := scop.ConstInt(b.Y)
	if !b.Op.IsCompare() || !okx || !oky {
		return false, false
	}
	switch b.Op {
	case scop.Lt:
		return x < y, true
	case scop.Le:
		return x <= y, true
	case scop.Gt:
		return x > y, true
	case scop.Ge:
		return x >= y, true
	case scop.Eq:
		return x == y, true
	default:
		return x != y, true
	}
}

// usedAsIndex reports whether s reads array inside a subscript (a gather
// through an index array, or a data-dependent write).
func usedAsIndex(s *scop.Stmt, array string) bool {
	found := false
	check := func(e scop.Expr) {
		for _, r := range scop.Reads(e) {
			for _, x := range r.Index {
				found = found || readsArray(x, array)
			}
		}
	}
	check(s.Value)
	for _, x := range s.Write.Index {
		found = found || readsArray(x, array)
	}
	return found
}

// variable returns the subscripts that are not constants.
func variable(subscripts []scop.Expr) []scop.Expr {
	var out []scop.Expr
	for _, x := range subscripts {
		if it, _, ok := linear(x); ok && it == nil {
			continue
		}
		out = append(out, x)
	}
	return out
}

// readGroups groups distinct reads by their subscripts with the constant
// ones left out, in the order of their first members.
func readGroups(reads []*scop.Read) [][]*scop.Read {
	var out [][]*scop.Read
	at := map[string]int{}
	for _, r := range reads {
		var key []string
		for _, x := range r.Index {
			if it, _, ok := linear(x); ok && it == nil {
				key = append(key, "_")
			} else {
				key = append(key, x.String())
			}
		}
		k := strings.Join(key, ",")
		if i, ok := at[k]; ok {
			out[i] = append(out[i], r)
			continue
		}
		at[k] = len(out)
		out = append(out, []*scop.Read{r})
	}
	return out
}
