package scheduler

import (
	"fmt"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// CheckKind says which property of a tree a Violation breaks.
type CheckKind int

const (
	// CheckOrder: the dependence's source does not run before its sink.
	CheckOrder CheckKind = iota
	// CheckCoincident: a band member marked coincident carries the
	// dependence: source and sink agree on every schedule dimension above
	// the band (outer bands, sequence positions) but not on the member.
	// As in isl, the flag holds against every dependence the outer bands
	// leave, those the band's earlier members carry included: tiling keeps
	// it on the tile and point bands, where it must still hold.
	CheckCoincident
	// CheckPermutable: a band marked permutable has a member in which the
	// dependence, not carried by the dimensions above the band, goes
	// backwards (sink - source < 0), so the members may not be
	// interchanged or tiled.
	CheckPermutable
)

func (k CheckKind) String() string {
	switch k {
	case CheckOrder:
		return "order"
	case CheckCoincident:
		return "coincident"
	case CheckPermutable:
		return "permutable"
	}
	return fmt.Sprintf("CheckKind(%d)", int(k))
}

// flagString writes a Violation of a band's flags.
func (v Violation) flagString(pair string) string {
	dep := fmt.Sprintf("the %s dependence %s -> %s on %s", v.Kind, v.Source, v.Sink, v.Array)
	if v.Check == CheckCoincident {
		return fmt.Sprintf("member %d of the band at %s is marked coincident but carries %s: %s",
			v.Member, v.Band, dep, pair)
	}
	return fmt.Sprintf("the band at %s is marked permutable but %s goes backwards in member %d: %s",
		v.Band, dep, v.Member, pair)
}

// checkFlags checks the flags of every band of t against the dependences
// of g (their relations rels, restricted to the tree's context) that are
// not violated (those the order check reported are not reported again), with
// byStmt the statements' schedules (t.Map()). For the pairs of instances
// under a band that agree on all the schedule dimensions above it (the
// dependences the outer bands and sequences do not carry), a member
// marked coincident must give source and sink the same value, and no
// member of a band marked permutable may give the sink a smaller value
// than the source. Each violation comes with one pair of instances.
func checkFlags(t scheduletree.Tree, g *deps.Graph, rels []presburger.Map, violated []bool, byStmt map[string]presburger.Map) ([]Violation, error) {
	type band struct {
		path scheduletree.Path
		b    scheduletree.Band
	}
	var bs []band
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand {
			b := n.Band()
			if b.Permutable || anyTrue(b.Coincident) {
				bs = append(bs, band{append(scheduletree.Path(nil), p...), b})
			}
		}
		return true
	})
	var out []Violation
	for _, bd := range bs {
		vs, err := checkBand(t, g, rels, violated, byStmt, bd.path, bd.b)
		if err != nil {
			return nil, fmt.Errorf("scheduler: checking the flags of the band at %s: %w", bd.path, err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// checkBand checks one band's flags.
func checkBand(t scheduletree.Tree, g *deps.Graph, rels []presburger.Map, violated []bool, byStmt map[string]presburger.Map, p scheduletree.Path, b scheduletree.Band) ([]Violation, error) {
	depth, err := t.TimeDepth(p)
	if err != nil {
		return nil, err
	}
	inst, err := t.Instances(p)
	if err != nil {
		return nil, err
	}
	// The schedules of the instances that reach the band.
	sched := map[string]presburger.Map{}
	under := func(name string) (presburger.Map, bool, error) {
		if m, ok := sched[name]; ok {
			return m, true, nil
		}
		m, ok := byStmt[name]
		s, in := inst.ExtractSet(name)
		if !ok || !in {
			return m, false, nil
		}
		m, err := m.IntersectDomain(s)
		if err != nil {
			return m, false, err
		}
		sched[name] = m
		return m, true, nil
	}
	var out []Violation
	for i, d := range g.Deps {
		if violated[i] {
			continue
		}
		ms, ok, err := under(d.Source)
		if err != nil {
			return out, err
		}
		mt, ok2, err := under(d.Sink)
		if err != nil {
			return out, err
		}
		if !ok || !ok2 {
			continue // not both under the band
		}
		width := ms.Space().NOut()
		if mt.Space().NOut() != width || width < depth+b.Members() {
			return out, fmt.Errorf("times of %d and %d dimensions for a band of %d members at depth %d",
				width, mt.Space().NOut(), b.Members(), depth)
		}
		// The pairs of times of the dependence under the band.
		rev, err := ms.Reverse()
		if err != nil {
			return out, err
		}
		times, err := rev.ApplyRange(rels[i])
		if err == nil {
			times, err = times.ApplyRange(mt)
		}
		if err != nil {
			return out, err
		}
		if empty, err := times.IsEmpty(); err != nil || empty {
			if err != nil {
				return out, err
			}
			continue
		}
		timeSpace := presburger.SetSpace(ms.Space().Params, ms.Space().Out)
		check := func(kind CheckKind, member int, x presburger.Map) (bool, error) {
			bad, err := times.Intersect(x)
			if err != nil {
				return false, err
			}
			if empty, err := bad.IsEmpty(); err != nil || empty {
				return false, err
			}
			pairs, err := instancePairs(rels[i], ms, mt, x)
			if err != nil {
				return false, err
			}
			v, ok, err := example(pairs, byStmt[d.Source], byStmt[d.Sink])
			if err != nil || !ok {
				return false, err
			}
			v.Kind, v.Source, v.Sink, v.Array = d.Kind, d.Source, d.Sink, d.Array
			v.Check, v.Band, v.Member = kind, p, member
			out = append(out, v)
			return true, nil
		}
		if b.Permutable {
			for k := 0; k < b.Members(); k++ {
				x, err := differAt(timeSpace, depth, depth+k, 1)
				if err != nil {
					return out, err
				}
				if found, err := check(CheckPermutable, k, x); err != nil || found {
					if err != nil {
						return out, err
					}
					break // one witness per dependence and band
				}
			}
		}
		for k, c := range b.Coincident {
			if !c {
				continue
			}
			before, err := differAt(timeSpace, depth, depth+k, -1)
			if err != nil {
				return out, err
			}
			after, err := differAt(timeSpace, depth, depth+k, 1)
			if err != nil {
				return out, err
			}
			x, err := before.Union(after)
			if err != nil {
				return out, err
			}
			if _, err := check(CheckCoincident, k, x); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// differAt returns { a -> b : a and b agree on the first depth
// dimensions and a_level > b_level } on the tuple of sp (sign 1), or with
// a_level < b_level (sign -1).
func differAt(sp presburger.Space, depth, level int, sign int64) (presburger.Map, error) {
	np, n := sp.NParam(), sp.NOut()
	width := 1 + np + 2*n
	var eqs [][]int64
	for j := 0; j < depth; j++ {
		row := make([]int64, width)
		row[1+np+j], row[1+np+n+j] = 1, -1
		eqs = append(eqs, row)
	}
	row := make([]int64, width) // sign (a_level - b_level) - 1 >= 0
	row[0], row[1+np+level], row[1+np+n+level] = -1, sign, -sign
	return presburger.MapFromConstraints(presburger.MapSpace(sp.Params, sp.Out, sp.Out), eqs, [][]int64{row})
}

// instancePairs returns the pairs of rel whose times under ms and mt are
// related by x.
func instancePairs(rel, ms, mt, x presburger.Map) (presburger.Map, error) {
	var zero presburger.Map
	rev, err := mt.Reverse()
	if err != nil {
		return zero, err
	}
	via, err := ms.ApplyRange(x)
	if err == nil {
		via, err = via.ApplyRange(rev)
	}
	if err != nil {
		return zero, err
	}
	return rel.Intersect(via)
}
