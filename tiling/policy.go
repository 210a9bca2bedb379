package tiling

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
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
	// NoWavefront keeps the tile loops of a tiled band whose first two
	// members are not coincident as they are: sequential. By default such
	// a band of two or more members, permutable as every tiled band is,
	// becomes a wavefront (scheduletree's Wavefront of its first two
	// tile members) whose next tile loop is parallel.
	NoWavefront bool
	// MinMembers, when above 1, leaves permutable bands of fewer members
	// untiled and tiles the outermost permutable bands of at least that
	// many below them instead: strip-mining a single loop brings no
	// reuse (Polly tiles no one-dimensional band either).
	MinMembers int
	// NoNestedWavefront leaves untiled a band that would need a
	// wavefront (see NoWavefront) below a band with a sequential
	// member: its wavefronts, each with its pipeline fill and barrier,
	// would start over at every iteration of the outer loop (Floyd-
	// Warshall's (i, j) under k ran 1.27x slower tiled than not).
	NoNestedWavefront bool
	// OnlyReuse tiles a band that needs no wavefront only where tiling it
	// brings reuse (Reuses, over Program's statements): a band whose
	// footprints are all small streams as well untiled.
	OnlyReuse bool
	// FuseSiblings first fuses sibling reductions (siblings.go: adjacent
	// one-statement bands with the same rows over the same points, each
	// row a chain of dependent instances, sharing a read) into one band
	// left untiled. It needs Program and Check.
	FuseSiblings bool
	// LocalPoints orders the point loops of a tiled band whose tile
	// loops include a parallel one for locality (points.go): the member
	// that walks the arrays best goes innermost. It needs Program.
	LocalPoints bool
	// Program is the program of the tree, for OnlyReuse, FuseSiblings and
	// LocalPoints (package compiler sets it).
	Program *scop.Program
	// Check, when set, checks a tree against the program's dependences
	// (package compiler passes scheduler.Check's verdict: every dependence
	// in order, every flag true). With it the point loops of a tiled band
	// whose innermost member carries a dependence between the statements
	// of a sequence below are distributed over those statements when
	// that is legal and makes each statement's innermost loop parallel;
	// a "vector" mark above each asks for it to be vectorized. Only
	// inside a parallel tile loop: elsewhere the AST would make those
	// loops the parallel ones.
	Check func(scheduletree.Tree) (bool, error)
	// Note, when set, receives a line per decision Apply takes on a band
	// (fused, left untiled, tiled, its points reordered or distributed):
	// what `explain` shows.
	Note func(string)
}

// note sends a decision to pol.Note, when set.
func (pol Policy) note(format string, args ...any) {
	if pol.Note != nil {
		pol.Note(fmt.Sprintf(format, args...))
	}
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
// bands it tiled, each now a tile band above its point band (below the
// wavefront band, when there is one).
func Apply(t scheduletree.Tree, pol Policy) (scheduletree.Tree, []scheduletree.Path, error) {
	for _, s := range pol.Sizes {
		if s <= 0 {
			return t, nil, fmt.Errorf("tiling: tile size %d is not positive", s)
		}
	}
	var tiled, fused []scheduletree.Path
	if pol.FuseSiblings && pol.Program != nil && pol.Check != nil {
		var err error
		if t, fused, err = fuseSiblings(t, pol); err != nil {
			return t, nil, err
		}
		for _, p := range fused {
			pol.note("fused sibling reductions %s into one band, left untiled", statementsAt(t, p))
		}
	}
	if len(pol.Sizes) > 0 {
		tiled = outermost(t, pol.MinMembers, pol.NoNestedWavefront)
		tiled = slices.DeleteFunc(tiled, func(p scheduletree.Path) bool {
			return slices.ContainsFunc(fused, func(f scheduletree.Path) bool { return slices.Equal(f, p) })
		})
		if pol.OnlyReuse {
			if pol.Program == nil {
				return t, nil, fmt.Errorf("tiling: OnlyReuse without the program")
			}
			all := tiled
			var err error
			if tiled, err = reusing(pol.Program, t, tiled); err != nil {
				return t, nil, err
			}
			for _, p := range all {
				if !slices.ContainsFunc(tiled, func(q scheduletree.Path) bool { return slices.Equal(p, q) }) {
					pol.note("left %s untiled: its tiles would bring no reuse, cut no chain and need no wavefront", statementsAt(t, p))
				}
			}
		}
		// The bands head disjoint subtrees: tiling one (a band inserted
		// below it) moves no other's path.
		for i, p := range tiled {
			n, err := t.At(p)
			if err != nil {
				return t, nil, err
			}
			var perm []int
			if pol.LocalPoints {
				if perm, err = pointOrder(pol.Program, t, p); err != nil {
					return t, nil, err
				}
			}
			sizes := make([]int64, n.Band().Members())
			for k := range sizes {
				sizes[k] = SizeOf(pol.Sizes, k)
			}
			if t, err = t.TileBand(p, sizes); err != nil {
				return t, nil, err
			}
			how := ""
			if !pol.NoWavefront && NeedsWavefront(n.Band()) {
				if t, err = t.Wavefront(p, 2); err != nil {
					return t, nil, err
				}
				// The tile band proper, its tiles' coordinates the
				// prefix schedule below it, is the one above the points.
				tiled[i] = p.Child(0)
				how = ", a wavefront of tiles"
			}
			pol.note("tiled %s by %s%s", statementsAt(t, p), FormatSizes(sizes), how)
			if perm != nil && parallel(t, tiled[i]) {
				if t, err = t.PermuteBand(tiled[i].Child(0), perm); err != nil {
					return t, nil, err
				}
				pol.note("ordered the points of %s for locality: %s", statementsAt(t, p), bandRows(t, tiled[i].Child(0)))
			}
			if pol.Check != nil && parallel(t, tiled[i]) {
				before := t
				if t, err = vectorize(t, tiled[i], pol.Check); err != nil {
					return t, nil, err
				}
				if t != before {
					pol.note("distributed the innermost point loop of %s over its statements, each loop marked for vectorization", statementsAt(t, p))
				}
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

// reusing keeps the bands of paths that need a wavefront or whose tiling
// brings reuse.
func reusing(prog *scop.Program, t scheduletree.Tree, paths []scheduletree.Path) ([]scheduletree.Path, error) {
	var keep []scheduletree.Path
	for _, p := range paths {
		n, err := t.At(p)
		if err != nil {
			return nil, err
		}
		ok := NeedsWavefront(n.Band()) || shortensChains(n.Band())
		if !ok {
			if ok, err = Reuses(prog, t, p); err != nil {
				return nil, err
			}
		}
		if ok {
			keep = append(keep, p)
		}
	}
	return keep, nil
}

// shortensChains reports whether b's last member carries a dependence
// (each of its loops is a chain of dependent instances, a reduction or a
// recurrence) and a member before it is coincident (the chains are
// independent of one another): tiles cut the chains short enough that
// the out-of-order core overlaps several (adi's divisions along j ran
// 5.1 s tiled 32, 6.8 s untiled, at LARGE on 2 threads).
func shortensChains(b scheduletree.Band) bool {
	c := func(k int) bool { return k < len(b.Coincident) && b.Coincident[k] }
	last := b.Members() - 1
	return last > 0 && !c(last) && slices.ContainsFunc(b.Coincident[:min(last, len(b.Coincident))], func(v bool) bool { return v })
}

// NeedsWavefront reports whether the tile band of b needs a wavefront to
// have a parallel loop (Apply gives it one unless Policy.NoWavefront): b
// is permutable, has two or more members and neither of its first two
// is coincident. (With the first one coincident the outer tile loop is
// parallel; with the second one, the AST makes it the parallel loop
// inside a sequential outer one, as a wavefront would.)
func NeedsWavefront(b scheduletree.Band) bool {
	c := func(k int) bool { return k < len(b.Coincident) && b.Coincident[k] }
	return b.Permutable && b.Members() >= 2 && !c(0) && !c(1)
}

// parallel reports whether the band at p has a coincident member: the
// loops inside it are not the outermost parallel ones (a vectorized point
// loop must not become an OpenMP loop).
func parallel(t scheduletree.Tree, p scheduletree.Path) bool {
	n, err := t.At(p)
	return err == nil && slices.Contains(n.Band().Coincident, true)
}

// Outermost lists the permutable bands of t that have no permutable band
// above them, in tree order.
func Outermost(t scheduletree.Tree) []scheduletree.Path { return outermost(t, 0, false) }

// outermost lists the permutable bands of t of at least least members
// that have no such band above them, in tree order; with noNested, not
// one that needs a wavefront below a sequential loop.
func outermost(t scheduletree.Tree, least int, noNested bool) []scheduletree.Path {
	var paths []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() != scheduletree.KindBand {
			return true
		}
		b := n.Band()
		if !b.Permutable || b.Members() < least || (noNested && NeedsWavefront(b) && sequentialAbove(t, p)) {
			return true
		}
		paths = append(paths, append(scheduletree.Path{}, p...))
		return false
	})
	return paths
}

// sequentialAbove reports whether a band above p has a member that is
// not coincident: a loop around p's that runs in order.
func sequentialAbove(t scheduletree.Tree, p scheduletree.Path) bool {
	for k := range len(p) {
		n, err := t.At(p[:k])
		if err != nil || n.Kind() != scheduletree.KindBand {
			continue
		}
		b := n.Band()
		for m := range b.Members() {
			if m >= len(b.Coincident) || !b.Coincident[m] {
				return true
			}
		}
	}
	return false
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

// bandMaps returns the schedule maps of the band at p of t, one per
// statement; false where p is no band.
func bandMaps(t scheduletree.Tree, p scheduletree.Path) ([]presburger.Map, bool) {
	n, err := t.At(p)
	if err != nil || n.Kind() != scheduletree.KindBand {
		return nil, false
	}
	return n.Band().Schedule.Maps(), true
}

// statementsAt names the statements scheduled by the band at p of t.
func statementsAt(t scheduletree.Tree, p scheduletree.Path) string {
	maps, ok := bandMaps(t, p)
	if !ok {
		return "?"
	}
	var names []string
	for _, m := range maps {
		names = append(names, m.Space().In.Name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// bandRows writes the band at p of t as its statements' rows
// ("S2[i, j] -> [i, j]").
func bandRows(t scheduletree.Tree, p scheduletree.Path) string {
	maps, ok := bandMaps(t, p)
	if !ok {
		return "?"
	}
	var rows []string
	for _, m := range maps {
		s := m.String()
		if i := strings.Index(s, "{ "); i >= 0 {
			s = strings.TrimSuffix(s[i+2:], " }")
		}
		rows = append(rows, s)
	}
	slices.Sort(rows)
	return strings.Join(rows, "; ")
}
