package scop

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// Accumulators reports, per statement and iterator k, whether a loop that
// runs the statement alone, over iterator k with the other iterators
// fixed, may keep the element the statement writes in a register for the
// whole loop: the write does not move with k, the statement reads that
// element through the same reference (an update: A[i][j] = max(A[i][j],
// ...)), and no other read of the array touches the element at any
// instance of such a loop. Then every instance sees in the register the
// value memory would hold, and one store after the loop leaves memory as
// the loop would. LLVM cannot keep it in a register itself where the
// other reads are of the same array (nussinov's table[i][k] and
// table[k+1][j] beside table[i][j]): it cannot prove they never meet.
//
// A statement without such an iterator is absent. Decided exactly on
// the access relations; an operation out of budget answers no.
func (p *Program) Accumulators() (map[string][]bool, error) {
	out := map[string][]bool{}
	for _, s := range p.Stmts {
		if s.MayWrite || len(s.Writes) != 1 || !readsOwnElement(s) {
			continue
		}
		var ks []bool
		some := false
		for k := range s.Iters {
			ok, err := p.accumulates(s, k)
			if err != nil {
				if errors.Is(err, presburger.ErrBudget) {
					ok = false
				} else {
					return nil, err
				}
			}
			ks = append(ks, ok)
			some = some || ok
		}
		if some {
			out[s.Name] = ks
		}
	}
	return out, nil
}

// readsOwnElement reports whether s reads its write reference as written.
func readsOwnElement(s *Stmt) bool {
	w := s.Write.String()
	return slices.ContainsFunc(stmtReads(s), func(r *Read) bool { return r.Ref.String() == w })
}

// accumulates decides one statement and iterator (see Accumulators).
func (p *Program) accumulates(s *Stmt, k int) (bool, error) {
	same, err := p.sameBut(s, k)
	if err != nil {
		return false, err
	}
	w := s.Writes[0].Rel
	// The write does not move with k: W(y) = W(x) for x ~k y.
	moved, err := same.ApplyRange(w)
	if err != nil {
		return false, err
	}
	if ok, err := moved.IsSubset(w); err != nil || !ok {
		return false, err
	}
	back, err := w.Reverse()
	if err != nil {
		return false, err
	}
	text := s.Write.String()
	reads := stmtReads(s)
	for i, r := range s.Reads {
		if r.Array != s.Write.Array || (i < len(reads) && reads[i].Ref.String() == text) {
			continue
		}
		// Instances x ~k y where x reads what y writes.
		meet, err := r.Rel.ApplyRange(back)
		if err != nil {
			return false, err
		}
		if meet, err = meet.Intersect(same); err != nil {
			return false, err
		}
		if empty, err := meet.IsEmpty(); err != nil || !empty {
			return false, err
		}
	}
	return true, nil
}

// sameBut is { S[x] -> S[y] : x and y in S's domain, equal but for
// iterator k }.
func (p *Program) sameBut(s *Stmt, k int) (presburger.Map, error) {
	taken := map[string]bool{}
	for _, n := range p.Params {
		taken[n] = true
	}
	xs, ys := make([]string, len(s.Iters)), make([]string, len(s.Iters))
	var eqs []string
	for m := range s.Iters {
		xs[m], ys[m] = freshName(fmt.Sprintf("x%d", m), taken), freshName(fmt.Sprintf("y%d", m), taken)
		if m != k {
			eqs = append(eqs, xs[m]+" = "+ys[m])
		}
	}
	cond := ""
	if len(eqs) > 0 {
		cond = " : " + strings.Join(eqs, " and ")
	}
	text := fmt.Sprintf("[%s] -> { %s[%s] -> %s[%s]%s }", strings.Join(p.Params, ", "),
		s.Name, strings.Join(xs, ", "), s.Name, strings.Join(ys, ", "), cond)
	m, err := presburger.ParseMap(text)
	if err != nil {
		return presburger.Map{}, err
	}
	if m, err = m.IntersectDomain(s.Domain); err != nil {
		return presburger.Map{}, err
	}
	return m.IntersectRange(s.Domain)
}
