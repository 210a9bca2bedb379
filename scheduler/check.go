package scheduler

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// Violation is a dependence that a schedule tree does not respect, with
// one concrete pair of instances it orders wrongly, or that contradicts a
// band's flags (Check), with one pair of instances that shows it.
type Violation struct {
	// Check is the property broken: the dependence's order, or the
	// coincident or permutable flag of the band at Band (Member is the
	// member marked coincident, or the one in which the dependence goes
	// backwards).
	Check        CheckKind
	Band         scheduletree.Path
	Member       int
	Kind         deps.Kind
	Source, Sink string // statements
	Array        string
	// Params holds the parameter values of the example, by name.
	Params map[string]int64
	// ParamNames lists the parameters in the program's order.
	ParamNames []string
	// SourceInstance and SinkInstance are the iteration vectors of the
	// pair; SourceTime and SinkTime their times in the tree's schedule
	// (nil when the tree does not schedule the instance).
	SourceInstance, SinkInstance []int64
	SourceTime, SinkTime         []int64
	// Overwriter, for CheckFlow, is the statement one of whose instances
	// writes the element between the source and the sink.
	Overwriter string
}

func (v Violation) String() string {
	when := func(t []int64) string {
		if t == nil {
			return "is never scheduled"
		}
		return "runs at " + vec(t)
	}
	var ps []string
	for _, n := range v.ParamNames {
		ps = append(ps, fmt.Sprintf("%s = %d", n, v.Params[n]))
	}
	pair := fmt.Sprintf("%s%s %s, %s%s %s",
		v.Source, vec(v.SourceInstance), when(v.SourceTime),
		v.Sink, vec(v.SinkInstance), when(v.SinkTime))
	var s string
	switch {
	case v.Check == CheckOrder && v.Overwriter != "":
		s = fmt.Sprintf("%s dependence %s -> %s on %s violated: an instance of %s writes the element between them: %s", v.Kind, v.Source, v.Sink, v.Array, v.Overwriter, pair)
	case v.Check == CheckOrder:
		s = fmt.Sprintf("%s dependence %s -> %s on %s violated: %s", v.Kind, v.Source, v.Sink, v.Array, pair)
	default:
		s = v.flagString(pair)
	}
	if len(ps) > 0 {
		s += " (" + strings.Join(ps, ", ") + ")"
	}
	return s
}

func vec(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Check reports every dependence of g that the tree t does not respect:
// some source instance does not run strictly before its sink instance in
// t.Map() (lexicographically), or one of them is not scheduled. When an
// instance has several times (extension nodes), every time of the source
// must precede every time of the sink. A context node directly below the
// root restricts the parameters considered. Marks are not interpreted: a
// subtree under a "skipped" mark counts as executed, as in t.Map().
//
// Check then verifies the bands' flags against the dependences it found
// respected (after the order violations, with Check set to
// CheckCoincident or CheckPermutable): a member marked
// coincident carries no dependence between instances that agree on every
// schedule dimension above it (outer bands, sequence positions and the
// band's earlier members), and in a band marked permutable no dependence
// not carried above the band goes backwards in any member. Code
// generation trusts these flags: a coincident member becomes a parallel
// loop, a permutable band is tiled.
func Check(t scheduletree.Tree, g *deps.Graph) ([]Violation, error) {
	sched, err := t.Map()
	if err != nil {
		return nil, err
	}
	byStmt := map[string]presburger.Map{}
	for _, m := range sched.Maps() {
		byStmt[m.Space().In.Name] = m
	}
	var out []Violation
	rels := make([]presburger.Map, len(g.Deps))
	violated := make([]bool, len(g.Deps))
	for i, d := range g.Deps {
		rel, err := inContext(t, d.Rel)
		if err != nil {
			return nil, err
		}
		rels[i] = rel
		bad, err := wronglyOrdered(rel, byStmt[d.Source], byStmt[d.Sink])
		if err != nil {
			return nil, fmt.Errorf("scheduler: checking %s %s -> %s on %s: %w", d.Kind, d.Source, d.Sink, d.Array, err)
		}
		v, ok, err := example(bad, byStmt[d.Source], byStmt[d.Sink])
		if err != nil {
			return nil, err
		}
		if ok {
			v.Kind, v.Source, v.Sink, v.Array = d.Kind, d.Source, d.Sink, d.Array
			out = append(out, v)
			violated[i] = true
		}
	}
	vs, err := checkFlags(t, g, rels, violated, byStmt)
	if err != nil {
		return nil, err
	}
	return append(out, vs...), nil
}

// inContext intersects rel with the tree's context, if the root's child
// is a context node.
func inContext(t scheduletree.Tree, rel presburger.Map) (presburger.Map, error) {
	root := t.Root()
	if root == nil || root.NumChildren() == 0 || root.Child(0).Kind() != scheduletree.KindContext {
		return rel, nil
	}
	ctx := root.Child(0).Context()
	sp := rel.Space()
	width := 1 + sp.NParam() + sp.NIn() + sp.NOut()
	if ctx.Space().NParam() != sp.NParam() {
		return rel, nil
	}
	all := presburger.EmptyMap(sp)
	for _, c := range ctx.Constraints() {
		if c.NLocal > 0 {
			return rel, nil
		}
		piece, err := presburger.MapFromConstraints(sp, widenRows(c.Eqs, width), widenRows(c.Ineqs, width))
		if err != nil {
			return rel, err
		}
		if all, err = all.Union(piece); err != nil {
			return rel, err
		}
	}
	return rel.Intersect(all)
}

func widenRows(rows [][]int64, width int) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = make([]int64, width)
		copy(out[i], r)
	}
	return out
}

// wronglyOrdered returns the pairs of rel whose source does not run
// strictly before the sink under the schedules ms and mt, or that lack a
// time.
func wronglyOrdered(rel, ms, mt presburger.Map) (presburger.Map, error) {
	var zero presburger.Map
	if ms.Space().In.Name == "" || mt.Space().In.Name == "" {
		return rel, nil // a statement the tree never schedules
	}
	timeSpace := presburger.SetSpace(ms.Space().Params, ms.Space().Out)
	after, err := ms.ApplyRange(presburger.LexGE(timeSpace))
	if err != nil {
		return zero, err
	}
	rev, err := mt.Reverse()
	if err != nil {
		return zero, err
	}
	if after, err = after.ApplyRange(rev); err != nil {
		return zero, err
	}
	bad, err := rel.Intersect(after)
	if err != nil {
		return zero, err
	}
	ds, err := ms.Domain()
	if err != nil {
		return zero, err
	}
	dt, err := mt.Domain()
	if err != nil {
		return zero, err
	}
	timed, err := rel.IntersectDomain(ds)
	if err == nil {
		timed, err = timed.IntersectRange(dt)
	}
	var untimed presburger.Map
	if err == nil {
		untimed, err = rel.Subtract(timed)
	}
	if err != nil {
		return zero, err
	}
	return bad.Union(untimed)
}

// sample returns one point of bad (parameters first) and a Violation
// holding its parameter values; ok is false when bad is empty.
func sample(bad presburger.Map) (v Violation, pt []int64, ok bool, err error) {
	w, err := bad.Wrap()
	if err != nil {
		return v, nil, false, err
	}
	if pt, ok, err = w.SamplePoint(); err != nil || !ok {
		return v, nil, false, err
	}
	sp := bad.Space()
	v = Violation{Params: map[string]int64{}, ParamNames: append([]string(nil), sp.Params...)}
	for i, n := range sp.Params {
		v.Params[n] = pt[i]
	}
	return v, pt, true, nil
}

// example samples one pair of bad and computes its times.
func example(bad, ms, mt presburger.Map) (Violation, bool, error) {
	v, pt, ok, err := sample(bad)
	if err != nil || !ok {
		return v, ok, err
	}
	np, ns := bad.Space().NParam(), bad.Space().NIn()
	v.SourceInstance = append([]int64(nil), pt[np:np+ns]...)
	v.SinkInstance = append([]int64(nil), pt[np+ns:]...)
	if v.SourceTime, err = timeOf(ms, pt[:np], v.SourceInstance); err != nil {
		return v, true, err
	}
	v.SinkTime, err = timeOf(mt, pt[:np], v.SinkInstance)
	return v, true, err
}

// timeOf returns the earliest time of one instance, or nil.
func timeOf(m presburger.Map, params, inst []int64) ([]int64, error) {
	if m.Space().In.Name == "" {
		return nil, nil
	}
	sp := m.Space()
	np, ni, no := sp.NParam(), sp.NIn(), sp.NOut()
	var eqs [][]int64
	for j, v := range append(append([]int64(nil), params...), inst...) {
		row := make([]int64, 1+np+ni+no)
		row[0], row[1+j] = -v, 1
		eqs = append(eqs, row)
	}
	at, err := restrict(m, eqs, nil)
	if err != nil {
		return nil, err
	}
	r, err := at.Range()
	if err != nil {
		return nil, err
	}
	if r, err = r.LexMin(); err != nil {
		return nil, err
	}
	pt, ok, err := r.SamplePoint()
	if err != nil || !ok {
		return nil, err
	}
	return pt[np:], nil
}
