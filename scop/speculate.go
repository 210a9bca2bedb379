package scop

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// SpeculableSelects lists the selects whose two operands can both be
// evaluated whatever the condition, so that code generation may compute
// both and pick one (a select instruction, which vectorizes) instead of
// branching to the chosen one: neither operand divides an integer by a
// variable, calls a costly function or reads through a subscript that
// reads memory, and every element either operand reads, at every
// instance of its statement, lies within the array's extents and, for an
// array the program writes and does not take as input, among the
// elements the program writes (a tile-local buffer holds those only).
func (p *Program) SpeculableSelects() (map[*Select]bool, error) {
	sp := speculation{p: p, written: map[string]presburger.Set{}, inside: map[string]presburger.Set{}}
	out := map[*Select]bool{}
	for _, s := range p.Stmts {
		var err error
		Walk(s.Value, func(e Expr) bool {
			sel, ok := e.(*Select)
			if !ok || err != nil {
				return err == nil
			}
			var safe bool
			if safe, err = sp.safe(s, sel.Then); err == nil && safe {
				safe, err = sp.safe(s, sel.Else)
			}
			if safe {
				out[sel] = true
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cheapCalls are the math functions an operand may call and still be
// evaluated when not chosen: one instruction each, vectorized.
var cheapCalls = map[string]bool{"abs": true, "floor": true, "ceil": true, "round": true, "sqrt": true}

type speculation struct {
	p *Program
	// written and inside cache, per array, the elements the program
	// writes and the elements within its extents.
	written, inside map[string]presburger.Set
}

// safe reports whether e can be evaluated at every instance of s.
func (sp *speculation) safe(s *Stmt, e Expr) (bool, error) {
	ok := true
	var reads []*Read
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Binary:
			switch x.Op {
			case Div, Rem, FloorDiv, Mod:
				if _, c := x.Y.(*Const); !c && x.T.IsInt() {
					ok = false
				}
			}
		case *Call:
			ok = ok && cheapCalls[x.Fn]
		case *Read:
			for _, i := range x.Ref.Index {
				if len(Reads(i)) > 0 {
					ok = false
				}
			}
			reads = append(reads, x)
		}
		return ok
	})
	for _, r := range reads {
		if !ok {
			break
		}
		var err error
		if ok, err = sp.inBounds(s, r.Ref); err != nil {
			return false, err
		}
	}
	return ok, nil
}

// inBounds reports whether every element ref reads at an instance of s
// exists: within the extents, and written by the program unless the
// array is an input.
func (sp *speculation) inBounds(s *Stmt, ref Ref) (bool, error) {
	a := sp.p.Array(ref.Array)
	if a == nil {
		return false, nil
	}
	acc, err := sp.p.access(s, ref, false)
	if err != nil {
		return false, err
	}
	elems, err := acc.Rel.Range()
	if err != nil {
		return false, err
	}
	box, err := sp.extents(a)
	if err != nil {
		return false, err
	}
	if ok, err := elems.IsSubset(box); err != nil || !ok {
		return false, err
	}
	if a.LiveIn {
		return true, nil
	}
	w, ok, err := sp.writes(a.Name)
	if err != nil || !ok {
		return false, err
	}
	return elems.IsSubset(w)
}

// extents is the set of a's elements within its extents.
func (sp *speculation) extents(a *Array) (presburger.Set, error) {
	if s, ok := sp.inside[a.Name]; ok {
		return s, nil
	}
	var idx, cons []string
	for i, x := range a.Extent {
		ext, err := AffineText(x)
		if err != nil {
			return presburger.Set{}, err
		}
		v := fmt.Sprintf("i%d", i)
		idx = append(idx, v)
		cons = append(cons, fmt.Sprintf("0 <= %s < %s", v, ext))
	}
	text := fmt.Sprintf("[%s] -> { %s[%s]", strings.Join(sp.p.Params, ", "), a.Name, strings.Join(idx, ", "))
	if len(cons) > 0 {
		text += " : " + strings.Join(cons, " and ")
	}
	s, err := presburger.ParseSet(text + " }")
	if err == nil {
		sp.inside[a.Name] = s
	}
	return s, err
}

// writes is the set of the elements of array name the program writes; false
// when no statement writes it or one may write it (a subscript that reads
// memory: its elements are not known).
func (sp *speculation) writes(name string) (presburger.Set, bool, error) {
	if s, ok := sp.written[name]; ok {
		return s, true, nil
	}
	var out presburger.Set
	first := true
	for _, s := range sp.p.Stmts {
		for _, w := range s.Writes {
			if w.Array != name {
				continue
			}
			if w.May {
				return presburger.Set{}, false, nil
			}
			r, err := w.Rel.Range()
			if err != nil {
				return presburger.Set{}, false, err
			}
			if first {
				out, first = r, false
			} else if out, err = out.Union(r); err != nil {
				return presburger.Set{}, false, err
			}
		}
	}
	if first {
		return presburger.Set{}, false, nil
	}
	sp.written[name] = out
	return out, true, nil
}
