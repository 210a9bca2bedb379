package gpumap

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// A prefix change says how a rewrite of a band renumbered the prefix
// schedule below it: for a node whose prefix schedule has depth d after
// the rewrite, it returns the matrix T whose row i gives prefix dimension
// i before the rewrite as a linear combination of the dimensions after
// it (before_i = Σ_j T[i][j]·after_j).
type prefixChange func(d int) [][]int64

// wavefrontChange is the change of a wavefront at depth at: member at
// became s0 + s1, so the old s0 is the new c_at − c_(at+1).
func wavefrontChange(at int) prefixChange {
	return func(d int) [][]int64 {
		t := identity(d)
		t[at][at+1] = -1
		return t
	}
}

// stripMineChange is the change of tiling the band of n members at depth
// at: n tile members are inserted before the band's own, which move down
// by n.
func stripMineChange(at, n int) prefixChange {
	return func(d int) [][]int64 {
		t := make([][]int64, d-n)
		for i := range t {
			t[i] = make([]int64, d)
			if i < at {
				t[i][i] = 1
			} else {
				t[i][i+n] = 1
			}
		}
		return t
	}
}

func identity(d int) [][]int64 {
	t := make([][]int64, d)
	for i := range t {
		t[i] = make([]int64, d)
		t[i][i] = 1
	}
	return t
}

// mul is a·b.
func mul(a, b [][]int64) [][]int64 {
	out := make([][]int64, len(a))
	for i, row := range a {
		out[i] = make([]int64, len(b[0]))
		for k, x := range row {
			if x == 0 {
				continue
			}
			for j, y := range b[k] {
				out[i][j] += x * y
			}
		}
	}
	return out
}

// depth is the prefix schedule depth at p: the band members above it.
func (m *treeMapper) depth(p scheduletree.Path) int {
	d := 0
	n := m.t.Root()
	for _, i := range p {
		if n.Kind() == scheduletree.KindBand {
			d += n.Band().Members()
		}
		n = n.Child(i)
	}
	return d
}

// reprefix rewrites what below the band at p (rewritten by ch, at prefix
// depth at) is stated in terms of the prefix schedule: the relations of
// extension nodes and the sets of guards, which the AST generator reads
// in the prefix space of their depth, and the prefixes of promote marks,
// whose buffer origins (kept outside the tree, in the tile coordinates of
// the tree given to Map) Mapping.Origin translates.
func (m *treeMapper) reprefix(p scheduletree.Path, at int, ch prefixChange) error {
	type site struct {
		p scheduletree.Path
		d int
	}
	var sites []site
	var walk func(p scheduletree.Path, n *scheduletree.Node, d int)
	walk = func(p scheduletree.Path, n *scheduletree.Node, d int) {
		switch n.Kind() {
		case scheduletree.KindBand:
			d += n.Band().Members()
		case scheduletree.KindExtension, scheduletree.KindGuard, scheduletree.KindMark:
			sites = append(sites, site{append(scheduletree.Path(nil), p...), d})
		}
		for i := 0; i < n.NumChildren(); i++ {
			walk(p.Child(i), n.Child(i), d)
		}
	}
	walk(p, m.at(p), at)
	for _, s := range sites {
		n := m.at(s.p)
		t := ch(s.d)
		switch n.Kind() {
		case scheduletree.KindExtension:
			f, err := linearMap(t)
			if err != nil {
				return err
			}
			ext, err := f.ApplyRange(n.Extension())
			if err != nil {
				return err
			}
			if m.t, err = m.t.Replace(s.p, scheduletree.NewExtension(ext, n.Child(0))); err != nil {
				return err
			}
		case scheduletree.KindGuard:
			g := n.Guard()
			if g.Space().IsParams {
				continue
			}
			pre, err := preimage(g, t)
			if err != nil {
				return err
			}
			if m.t, err = m.t.Replace(s.p, scheduletree.NewGuard(pre, n.Child(0))); err != nil {
				return err
			}
		case scheduletree.KindMark:
			a, ok := scheduletree.PromotedArray(n.Mark())
			if !ok {
				continue
			}
			if m.prefix == nil {
				m.prefix = map[string][][]int64{}
			}
			if old, ok := m.prefix[a]; ok {
				m.prefix[a] = mul(old, t)
			} else {
				m.prefix[a] = t
			}
		}
	}
	return nil
}

// linearMap is { [c_0, ..., c_(d-1)] -> [Σ_j T[i][j]·c_j, ...] }.
func linearMap(t [][]int64) (presburger.UnionMap, error) {
	d := 0
	if len(t) > 0 {
		d = len(t[0])
	}
	in := make([]string, d)
	for j := range in {
		in[j] = fmt.Sprintf("c%d", j)
	}
	out := make([]string, len(t))
	for i, row := range t {
		var terms []string
		for j, k := range row {
			if k != 0 {
				terms = append(terms, fmt.Sprintf("%d*c%d", k, j))
			}
		}
		if len(terms) == 0 {
			terms = []string{"0"}
		}
		out[i] = strings.Join(terms, " + ")
	}
	return presburger.ParseUnionMap("{ [" + strings.Join(in, ", ") + "] -> [" + strings.Join(out, ", ") + "] }")
}

// preimage is { x : f(x) ∈ g } for a guard g and the linear map f.
func preimage(g presburger.Set, t [][]int64) (presburger.Set, error) {
	var out presburger.Set
	fu, err := linearMap(t)
	if err != nil {
		return out, err
	}
	f := fu.Maps()[0]
	pre, err := f.IntersectRange(g)
	if err != nil {
		return out, err
	}
	return pre.Domain()
}
