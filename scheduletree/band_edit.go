package scheduletree

import (
	"fmt"
	"strings"
)

// editBand replaces the band node at p by what f builds from it.
func (t Tree) editBand(p Path, f func(n *Node, b Band) (*Node, error)) (res Tree, err error) {
	defer catch(&err)
	return t.replace(p, func(n *Node) (*Node, error) {
		if n.kind != KindBand {
			return nil, pathErr(p, n, "not a band node")
		}
		return f(n, n.band)
	})
}

// SetBand replaces the band of the band node at p, keeping its subtree.
func (t Tree) SetBand(p Path, b Band) (Tree, error) {
	return t.editBand(p, func(n *Node, _ Band) (*Node, error) {
		return NewBand(b, n.children[0]), nil
	})
}

// members returns the band's schedule restricted to members [from, to),
// keeping the flags of those members.
func (b Band) members(from, to int) Band {
	n := b.Members()
	out := make([]string, 0, to-from)
	for k := from; k < to; k++ {
		out = append(out, fmt.Sprintf("s%d", k))
	}
	return Band{
		Schedule:   applyText(b.Schedule, "{ "+tuple("s", n)+" -> ["+strings.Join(out, ", ")+"] }"),
		Permutable: b.Permutable,
		Coincident: append([]bool(nil), b.Coincident[from:to]...),
		Options:    append([]Option(nil), b.Options[from:to]...),
	}
}

// SplitBand splits the band at p into an outer band with its first k
// members over an inner band with the others (isl_schedule_node_band_split).
// Both keep the permutable flag and their members' coincident flags and
// options.
func (t Tree) SplitBand(p Path, k int) (Tree, error) {
	return t.editBand(p, func(n *Node, b Band) (*Node, error) {
		m := b.Members()
		if k <= 0 || k >= m {
			return nil, pathErr(p, n, "cannot split a band of %d members at %d", m, k)
		}
		return NewBand(b.members(0, k), NewBand(b.members(k, m), n.children[0])), nil
	})
}

// TileBand tiles the band at p with the given sizes: it becomes a tile
// band with members floor(s_k / sizes[k]) over a point band with the
// original members s_k. This is isl_schedule_node_band_tile with the isl
// options tile_scale_tile_loops and tile_shift_point_loops both off (isl's
// defaults have both on: tile members sizes[k] * floor(s_k / sizes[k]),
// point members s_k mod sizes[k]). Both bands keep the permutable flag,
// the coincident flags and the options, as in isl.
func (t Tree) TileBand(p Path, sizes []int64) (Tree, error) {
	return t.editBand(p, func(n *Node, b Band) (*Node, error) {
		m := b.Members()
		if len(sizes) != m {
			return nil, pathErr(p, n, "%d tile sizes for a band of %d members", len(sizes), m)
		}
		var out []string
		for k, s := range sizes {
			if s <= 0 {
				return nil, pathErr(p, n, "tile size %d of member %d is not positive", s, k)
			}
			out = append(out, fmt.Sprintf("floor(s%d/%d)", k, s))
		}
		tile := b.clone()
		tile.Schedule = applyText(b.Schedule, "{ "+tuple("s", m)+" -> ["+strings.Join(out, ", ")+"] }")
		return NewBand(tile, NewBand(b, n.children[0])), nil
	})
}

// PermuteBand reorders the members of the band at p: new member k is old
// member perm[k]; coincident flags and options move with their members.
func (t Tree) PermuteBand(p Path, perm []int) (Tree, error) {
	return t.editBand(p, func(n *Node, b Band) (*Node, error) {
		m := b.Members()
		if len(perm) != m {
			return nil, pathErr(p, n, "permutation of %d members for a band of %d", len(perm), m)
		}
		seen := make([]bool, m)
		var out []string
		nb := Band{Permutable: b.Permutable}
		for _, k := range perm {
			if k < 0 || k >= m || seen[k] {
				return nil, pathErr(p, n, "%v is not a permutation of 0..%d", perm, m-1)
			}
			seen[k] = true
			out = append(out, fmt.Sprintf("s%d", k))
			nb.Coincident = append(nb.Coincident, b.Coincident[k])
			nb.Options = append(nb.Options, b.Options[k])
		}
		nb.Schedule = applyText(b.Schedule, "{ "+tuple("s", m)+" -> ["+strings.Join(out, ", ")+"] }")
		return NewBand(nb, n.children[0]), nil
	})
}
