package ast

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// part is a piece of a level generated with one loop option: the
// isolated part of a band's isolate option, or the points before, after
// or beside it.
type part struct {
	set presburger.Set
	opt scheduletree.Option
}

// isolate splits the domain p (a set of [c0..cd]) of the statements
// stmts at member lv.j of a band with an isolate option as isl's
// generate_shifted_component_tree does: the isolate set (a set of the
// band's prefix schedule and its members) is intersected with the
// statements' points over the whole band, projected onto [c0..cd] and
// replaced by its simple hull; the parts are the points before it (at
// the same outer values), the isolated points, the points after, and the
// points at outer values where nothing is isolated, generated in that
// order. The isolated part gets the band's isolated option for the
// member, the others its option. Without an isolate option of the
// band's depth, or with nothing isolated here, p is the one part.
func (g *gen) isolate(p presburger.Set, stmts []stmt, st *state, lv dimension) ([]part, error) {
	one := []part{{p, lv.opt}}
	if lv.band == nil || lv.j < 0 {
		return one, nil
	}
	b := lv.band.Band()
	if b.Isolate == nil {
		return one, nil
	}
	d := st.depth
	first, nb := d-lv.j, b.Members()
	iso, err := b.Isolate.Unwrap()
	if err != nil {
		return nil, err
	}
	if iso.Space().NIn() != first || iso.Space().NOut() != nb {
		return one, nil // isl looks for the isolate option of its depth only
	}
	// The statements' points over the whole band.
	var full presburger.Set
	for i, s := range stmts {
		m, err := g.extendMembers(s.sched, lv.band, lv.j+1, nb, s)
		if err != nil {
			return nil, err
		}
		r, err := m.Range()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			full = r
		} else if full, err = full.Union(r); err != nil {
			return nil, err
		}
	}
	isolated, err := full.Intersect(iso.AsSet())
	if err == nil {
		isolated, err = isolated.ProjectOut(d+1, first+nb-d-1)
	}
	if err == nil {
		isolated, err = isolated.Intersect(p)
	}
	var empty bool
	if err == nil {
		empty, err = isolated.IsEmpty()
	}
	if err != nil || empty {
		return one, err
	}
	if isolated, err = isolated.SimpleHull(); err != nil {
		return nil, err
	}
	// gt relates points with the same outer values and a larger value at d.
	params := isolated.Space().Params
	n := d + 1
	tup := presburger.NewTuple("", make([]string, n)...)
	width := 1 + len(params) + 2*n
	var eqs, ineqs [][]int64
	for i := 0; i < d; i++ {
		row := make([]int64, width)
		row[1+len(params)+i], row[1+len(params)+n+i] = 1, -1
		eqs = append(eqs, row)
	}
	row := make([]int64, width)
	row[0], row[1+len(params)+d], row[1+len(params)+n+d] = -1, 1, -1
	ineqs = append(ineqs, row)
	gt, err := presburger.MapFromConstraints(presburger.MapSpace(params, tup, tup), eqs, ineqs)
	if err != nil {
		return nil, err
	}
	lt, err := gt.Reverse()
	if err != nil {
		return nil, err
	}
	before, err := isolated.Apply(gt)
	if err != nil {
		return nil, err
	}
	after, err := isolated.Apply(lt)
	if err != nil {
		return nil, err
	}
	rest, err := p.Subtract(isolated)
	if err == nil {
		isolated, err = isolated.Intersect(p)
	}
	if err == nil {
		before, err = before.Intersect(rest)
	}
	if err == nil {
		rest, err = rest.Subtract(before)
	}
	if err == nil {
		after, err = after.Intersect(rest)
	}
	if err == nil {
		rest, err = rest.Subtract(after)
	}
	if err != nil {
		return nil, err
	}
	var out []part
	for _, x := range []part{{before, lv.opt}, {isolated, b.IsolateOption(lv.j)}, {after, lv.opt}, {rest, lv.opt}} {
		if empty, err := x.set.IsEmpty(); err != nil {
			return nil, err
		} else if empty {
			continue
		}
		if x.set, err = x.set.Coalesce(); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// UnboundedError reports a loop without a lower bound, which has no first
// iteration (isl cannot generate it either). A loop without an upper
// bound is generated with the condition 1, as isl does (For.Unbounded).
type UnboundedError struct {
	// Dim is the schedule dimension (c<Dim>), Lower whether the lower
	// bound is missing (else the upper one), Set the points of the loop.
	Dim   int
	Lower bool
	Set   string
	// Where names the band member or statement iterator.
	Where string
}

func (e *UnboundedError) Error() string {
	which := "upper"
	if e.Lower {
		which = "lower"
	}
	where := ""
	if e.Where != "" {
		where = " (" + e.Where + ")"
	}
	return fmt.Sprintf("ast: the loop of dimension c%d%s has no %s bound in %s; a loop needs a first iteration", e.Dim, where, which, e.Set)
}

// describe names the dimension being generated for messages.
func (lv dimension) describe(stmts []stmt) string {
	var names []string
	for _, s := range stmts {
		names = append(names, s.name)
	}
	if lv.band != nil && lv.j >= 0 {
		return fmt.Sprintf("member %d of the band %s, statements %s", lv.j, lv.band.Band().Schedule, strings.Join(names, ", "))
	}
	return "an iterator of statement " + strings.Join(names, ", ")
}
