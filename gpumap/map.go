package gpumap

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// Map returns t with the default GPU mapping as marks (package emit's
// gpu.go says what the marks mean to emit.Emit), for the AST generated
// from it; sizes bound the threads of a block. It
// follows the tree from the root; the subtrees under existing "kernel",
// "thread" or "skipped" marks are left as they are.
//
// Outside kernels, at a band whose first member is coincident (parallel),
// a kernel starts: its leading coincident members (at most two) go to
// blocks, split from the others, with a "kernel" mark above. A band
// whose first member is not coincident stays on the host: when no band
// follows it and a later member is coincident, only its leading
// non-coincident members (the host loops fix them, after which the next
// member is parallel); else, when it is permutable with two or more
// members (a time-skewed stencil, or its tile band), its wavefront (see
// wavefront: the host loops over wavefronts, the next member is
// parallel); else all of it.
//
// Inside a kernel, below its block band, every path through sequences,
// filters and extensions is followed to its first band with a leading
// coincident member; those members (at most two) go to threads, split
// from the others, with a "thread" mark above. Bands on the way, and the
// leading non-coincident members of a band (or the wavefront of a
// permutable band without coincident members, as on the host), run
// serially in every block (with barriers between the thread phases); a
// band that another band follows is passed whole to that one first (a
// tile band's remaining members, above the point band), and mapped
// itself only when nothing below it is.
//
// When no thread band is found in a kernel, the block band is
// strip-mined: tiled by the thread sizes, its tile band goes to blocks
// and its point band to threads (so an untiled parallel nest becomes
// blocks of ThreadSizes threads).
//
// Below every mapped band a "serial" mark ends the mapped loops (in the
// AST, a degenerate member has no loop, and the loops of the band below
// would otherwise continue the nest).
//
// Only leading coincident members of a band are mapped to blocks: after
// tiling, a tile member's flag copied from a member that is coincident
// only with the earlier members of its band fixed need not hold with
// only their tiles fixed. Threads and host loops fix the members they
// skip, so there a later coincident member is parallel.
//
// A wavefront and a strip-mined block band renumber the prefix schedule
// below them; the extensions and guards there are rewritten to match,
// and MapTree's Mapping says how the prefixes at promote marks changed.
func Map(t scheduletree.Tree, sizes Sizes) (scheduletree.Tree, error) {
	m, err := MapTree(t, sizes)
	return m.Tree, err
}

// Mapping is a mapped tree and how the mapping renumbered the prefix
// schedules of its "promote[A]" marks.
type Mapping struct {
	Tree scheduletree.Tree
	// Prefix gives, for each array A of a promote mark below a band that
	// the mapping renumbered, the given tree's prefix schedule at the
	// mark as linear functions of the mapped tree's: dimension i before
	// is Σ_j Prefix[A][i][j]·c_j. Arrays not listed keep their prefix.
	Prefix map[string][][]int64
}

// Origin translates the coefficients of a buffer origin of array a over
// the given tree's prefix dimensions (coefficient i for dimension i, as
// fusion.Affine.Tile) into coefficients over the mapped tree's.
func (m Mapping) Origin(a string, coeffs []int64) []int64 {
	t, ok := m.Prefix[a]
	if !ok {
		return coeffs
	}
	var out []int64
	for i, k := range coeffs {
		if k == 0 {
			continue
		}
		for j, x := range t[i] {
			for len(out) <= j {
				out = append(out, 0)
			}
			out[j] += k * x
		}
	}
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// MapTree is Map with the renumbering of the promote marks' prefixes.
func MapTree(t scheduletree.Tree, sizes Sizes) (Mapping, error) {
	if err := sizes.Check(false); err != nil {
		return Mapping{Tree: t}, fmt.Errorf("gpumap: %v", err)
	}
	m := &treeMapper{t: t, ts: sizes.Threads3()}
	err := m.host(scheduletree.Path{})
	return Mapping{Tree: m.t, Prefix: m.prefix}, err
}

type treeMapper struct {
	t  scheduletree.Tree
	ts [Dims]int64
	// prefix: see Mapping.Prefix.
	prefix map[string][][]int64
}

func (m *treeMapper) at(p scheduletree.Path) *scheduletree.Node {
	n, err := m.t.At(p)
	if err != nil {
		panic(err) // the mapper only visits paths it made
	}
	return n
}

func (m *treeMapper) mark(p scheduletree.Path, name string) error {
	t, err := m.t.InsertMark(p, name)
	if err == nil {
		m.t = t
	}
	return err
}

func (m *treeMapper) split(p scheduletree.Path, k int) error {
	t, err := m.t.SplitBand(p, k)
	if err == nil {
		m.t = t
	}
	return err
}

// leading returns the number of leading coincident members of b and the
// index of its first coincident member (-1 for none).
func leading(b scheduletree.Band) (lead, first int) {
	first = -1
	for k, c := range b.Coincident {
		if c && first < 0 {
			first = k
		}
		if c && first == 0 {
			lead++
		}
		if !c && first == 0 {
			break
		}
	}
	return lead, first
}

func mappedMark(n *scheduletree.Node) bool {
	if n.Kind() != scheduletree.KindMark {
		return false
	}
	switch n.Mark() {
	case scheduletree.MarkKernel, scheduletree.MarkThread, scheduletree.MarkSkipped:
		return true
	}
	return false
}

// host maps the subtree at p, which runs on the host.
func (m *treeMapper) host(p scheduletree.Path) error {
	n := m.at(p)
	switch n.Kind() {
	case scheduletree.KindLeaf:
		return nil
	case scheduletree.KindMark:
		if mappedMark(n) {
			return nil
		}
	case scheduletree.KindBand:
		b := n.Band()
		lead, first := leading(b)
		switch {
		case lead > 0:
			return m.kernel(p)
		case first > 0 && n.Child(0).Kind() != scheduletree.KindBand:
			if err := m.split(p, first); err != nil {
				return err
			}
			return m.host(p.Child(0))
		case wavefrontable(b):
			if err := m.wavefront(p); err != nil {
				return err
			}
			return m.host(p.Child(0))
		default:
			return m.host(p.Child(0))
		}
	}
	for i := 0; i < n.NumChildren(); i++ {
		if err := m.host(p.Child(i)); err != nil {
			return err
		}
	}
	return nil
}

// kernel maps the band at p, whose first member is coincident.
func (m *treeMapper) kernel(p scheduletree.Path) error {
	n := m.at(p)
	lead, _ := leading(n.Band())
	nb := min(lead, 2)
	if n.Band().Members() > nb {
		if err := m.split(p, nb); err != nil {
			return err
		}
	}
	if err := m.mark(p, scheduletree.MarkKernel); err != nil {
		return err
	}
	bp := p.Child(0) // the block band
	found, err := m.threads(bp.Child(0))
	if err != nil {
		return err
	}
	if !found {
		// Strip-mine: member j of nb goes to dimension nb-1-j.
		sizes := make([]int64, nb)
		for j := range sizes {
			sizes[j] = m.ts[nb-1-j]
		}
		t, err := m.t.TileBand(bp, sizes)
		if err != nil {
			return err
		}
		m.t = t
		if err := m.reprefix(bp, m.depth(bp), stripMineChange(m.depth(bp), nb)); err != nil {
			return err
		}
		if err := m.mark(bp.Child(0), scheduletree.MarkThread); err != nil {
			return err
		}
		if err := m.serialAfter(bp.Child(0).Child(0)); err != nil {
			return err
		}
	}
	return m.serialAfter(bp)
}

// wavefrontable reports whether b is a permutable band of two or more
// members without a leading coincident one.
func wavefrontable(b scheduletree.Band) bool {
	lead, _ := leading(b)
	return lead == 0 && b.Permutable && b.Members() >= 2 && len(b.Schedule.Maps()) > 0
}

// wavefront replaces the band at p, permutable, by its wavefront: member
// 0 becomes s0 + s1, the others stay, and the band is split after the
// wavefront member. Every dependence the band carries has non-negative
// distances d0 and d1 (permutability), so those with d0 + d1 = 0 have
// d1 = 0: member s1 is coincident with the wavefront fixed. The other
// members' flags are dropped (a tile band's may not hold).
func (m *treeMapper) wavefront(p scheduletree.Path) error {
	b := m.at(p).Band()
	k := b.Members()
	in, out := make([]string, k), make([]string, k)
	for i := range in {
		in[i] = fmt.Sprintf("s%d", i)
		out[i] = in[i]
	}
	out[0] = "s0 + s1"
	f, err := presburger.ParseUnionMap("{ [" + strings.Join(in, ", ") + "] -> [" + strings.Join(out, ", ") + "] }")
	if err != nil {
		return err
	}
	sched, err := b.Schedule.ApplyRange(f)
	if err != nil {
		return err
	}
	nb := scheduletree.Band{Schedule: sched, Permutable: true, Coincident: make([]bool, k), Options: b.Options}
	nb.Coincident[1] = true
	t, err := m.t.SetBand(p, nb)
	if err != nil {
		return err
	}
	m.t = t
	if err := m.split(p, 1); err != nil {
		return err
	}
	return m.reprefix(p, m.depth(p), wavefrontChange(m.depth(p)))
}

// serialAfter puts a "serial" mark below the mapped band at p, unless a
// mark is there: the mapped loops end there even when a member of the
// band is degenerate (generates no loop).
func (m *treeMapper) serialAfter(p scheduletree.Path) error {
	if m.at(p).Child(0).Kind() != scheduletree.KindMark {
		return m.mark(p.Child(0), scheduletree.MarkSerial)
	}
	return nil
}

// threads maps the thread bands of the block-level subtree at p and
// reports whether it found any.
func (m *treeMapper) threads(p scheduletree.Path) (bool, error) {
	n := m.at(p)
	switch n.Kind() {
	case scheduletree.KindLeaf:
		return false, nil
	case scheduletree.KindMark:
		if mappedMark(n) {
			return false, nil
		}
	case scheduletree.KindBand:
		b := n.Band()
		lead, first := leading(b)
		if n.Child(0).Kind() == scheduletree.KindBand {
			if found, err := m.threads(p.Child(0)); found || err != nil || lead == 0 {
				return found, err
			}
		}
		switch {
		case lead > 0:
			nt := min(lead, 2)
			if b.Members() > nt {
				if err := m.split(p, nt); err != nil {
					return false, err
				}
			}
			if err := m.mark(p, scheduletree.MarkThread); err != nil {
				return false, err
			}
			return true, m.serialAfter(p.Child(0))
		case first > 0 && n.Child(0).Kind() != scheduletree.KindBand:
			if err := m.split(p, first); err != nil {
				return false, err
			}
			return m.threads(p.Child(0))
		case wavefrontable(b):
			if err := m.wavefront(p); err != nil {
				return false, err
			}
			return m.threads(p.Child(0))
		default:
			return m.threads(p.Child(0))
		}
	}
	any := false
	for i := 0; i < n.NumChildren(); i++ {
		found, err := m.threads(p.Child(i))
		if err != nil {
			return false, err
		}
		any = any || found
	}
	return any, nil
}
