package tiling

import (
	"fmt"
	"strconv"
	"strings"

	"tilefuse/scheduletree"
)

// Policy says how to tile a schedule tree.
type Policy struct {
	// Sizes are the tile sizes of the band members, outermost first; the
	// last one repeats for further members. Empty: no tiling.
	Sizes []int64
	// Separate sets isl's separate option on every band directly above
	// another band: the loops of a tile band are split into full and
	// partial tiles.
	Separate bool
}

// ParseSizes reads "T" or "T1,T2,..." of positive integers, the form of
// the --tile options.
func ParseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q is not a positive tile size", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// FormatSizes prints sizes as ParseSizes reads them.
func FormatSizes(sizes []int64) string {
	s := make([]string, len(sizes))
	for i, v := range sizes {
		s[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(s, ",")
}

// SizeOf returns the size of member k under sizes: sizes[k], or the last
// size for members beyond the list.
func SizeOf(sizes []int64, k int) int64 { return sizes[min(k, len(sizes)-1)] }

// Apply tiles t by the policy and returns the tree and the paths of the
// bands it tiled (each now a tile band above its point band).
func Apply(t scheduletree.Tree, pol Policy) (scheduletree.Tree, []scheduletree.Path, error) {
	for _, s := range pol.Sizes {
		if s <= 0 {
			return t, nil, fmt.Errorf("tiling: tile size %d is not positive", s)
		}
	}
	var tiled []scheduletree.Path
	if len(pol.Sizes) > 0 {
		tiled = Outermost(t)
		// The bands head disjoint subtrees: tiling one (a band inserted
		// below it) moves no other's path.
		for _, p := range tiled {
			n, err := t.At(p)
			if err != nil {
				return t, nil, err
			}
			sizes := make([]int64, n.Band().Members())
			for k := range sizes {
				sizes[k] = SizeOf(pol.Sizes, k)
			}
			if t, err = t.TileBand(p, sizes); err != nil {
				return t, nil, err
			}
		}
	}
	if pol.Separate {
		var err error
		if t, err = separate(t); err != nil {
			return t, nil, err
		}
	}
	return t, tiled, nil
}

// Outermost lists the permutable bands of t that have no permutable band
// above them, in tree order.
func Outermost(t scheduletree.Tree) []scheduletree.Path {
	var paths []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && n.Band().Permutable {
			paths = append(paths, append(scheduletree.Path{}, p...))
			return false
		}
		return true
	})
	return paths
}

// separate sets the separate option on every member of each band whose
// child is a band.
func separate(t scheduletree.Tree) (scheduletree.Tree, error) {
	var paths []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand {
			c := n.Children()
			if len(c) == 1 && c[0] != nil && c[0].Kind() == scheduletree.KindBand {
				paths = append(paths, append(scheduletree.Path{}, p...))
			}
		}
		return true
	})
	for _, p := range paths {
		n, err := t.At(p)
		if err != nil {
			return t, err
		}
		b := n.Band()
		b.Options = make([]scheduletree.Option, b.Members())
		for k := range b.Options {
			b.Options[k] = scheduletree.OptionSeparate
		}
		if t, err = t.SetBand(p, b); err != nil {
			return t, err
		}
	}
	return t, nil
}
