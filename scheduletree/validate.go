package scheduletree

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// Validate checks that t is a well-formed schedule tree and returns every
// problem found, each a *PathError naming the node:
//
//   - the root is the only domain node; nodes have the right number of
//     children; the children of a sequence or set are filters;
//   - the filters of a sequence or set partition the instances reaching it:
//     pairwise disjoint on them and covering them;
//   - a band has at least one member, its schedule maps to unnamed tuples
//     of that many dimensions, and it is a total function on the instances
//     reaching the band;
//   - an extension maps from the prefix schedule space (an unnamed tuple
//     with one dimension per outer band member); a guard is a set in that
//     space or a parameter set; a context is a parameter set;
//   - an expansion's contraction is a function and its expansion is part
//     of the contraction's inverse; a mark has a name.
func Validate(t Tree) error {
	if t.root == nil || t.root.kind != KindDomain {
		return errors.New("scheduletree: the root of a tree must be a domain node")
	}
	v := &validator{}
	v.node(Path{}, t.root, state{})
	return errors.Join(v.errs...)
}

type validator struct{ errs []error }

func (v *validator) fail(p Path, n *Node, format string, args ...any) {
	v.errs = append(v.errs, pathErr(p, n, format, args...))
}

func (v *validator) node(p Path, n *Node, s state) {
	if err := v.check(p, n, s); err != nil {
		v.fail(p, n, "%v", err)
	}
	if len(p) > 0 && n.kind == KindDomain {
		v.fail(p, n, "a domain node can only be the root")
	}
	switch {
	case n.kind == KindLeaf && len(n.children) != 0,
		n.kind.hasOneChild() && len(n.children) != 1:
		v.fail(p, n, "has %d children", len(n.children))
		return
	case (n.kind == KindSequence || n.kind == KindSet) && len(n.children) == 0:
		v.fail(p, n, "has no children")
		return
	}
	var cs state
	func() {
		defer func() {
			if r := recover(); r != nil {
				oe, ok := r.(opError)
				if !ok {
					panic(r)
				}
				v.fail(p, n, "%v", oe.err)
				cs = s
			}
		}()
		cs = s.descend(n)
	}()
	for i, c := range n.children {
		if (n.kind == KindSequence || n.kind == KindSet) && c.kind != KindFilter {
			v.fail(p.Child(i), c, "the children of a %s must be filters", n.kind)
		}
		v.node(p.Child(i), c, cs)
	}
}

// check runs the checks of one node; operation errors end them.
func (v *validator) check(p Path, n *Node, s state) (err error) {
	defer catch(&err)
	switch n.kind {
	case KindBand:
		v.checkBand(p, n, s)
	case KindSequence, KindSet:
		v.checkPartition(p, n, s)
	case KindExtension:
		for _, m := range n.umap.Maps() {
			if !isPrefixSpace(m.Space().In, s.depth) {
				v.fail(p, n, "extension %s does not map from the prefix schedule space (%d unnamed dimensions)", m, s.depth)
			}
		}
	case KindGuard:
		if sp := n.set.Space(); !sp.IsParams && !isPrefixSpace(sp.Out, s.depth) {
			v.fail(p, n, "guard %s is not a set of the prefix schedule space (%d unnamed dimensions)", n.set, s.depth)
		}
	case KindContext:
		// As in isl, a context may constrain the outer schedule
		// dimensions too.
		if sp := n.set.Space(); !sp.IsParams && !isPrefixSpace(sp.Out, s.depth) {
			v.fail(p, n, "context %s is not a parameter set or a set of the prefix schedule space (%d unnamed dimensions)", n.set, s.depth)
		}
	case KindMark:
		if n.mark == "" {
			v.fail(p, n, "mark without a name")
		}
	case KindExpansion:
		if bad := notFunction(n.contraction); !must(bad.IsEmpty()) {
			v.fail(p, n, "contraction is not a function on %s", bad)
		}
		if !must(must(n.umap.Reverse()).IsSubset(n.contraction)) {
			v.fail(p, n, "expansion is not part of the inverse of the contraction")
		}
	}
	return nil
}

func isPrefixSpace(t presburger.Tuple, depth int) bool {
	return t.Name == "" && t.Nest == nil && len(t.Dims) == depth
}

func (v *validator) checkBand(p Path, n *Node, s state) {
	b := n.band
	if err := b.shapeError(); err != nil {
		v.fail(p, n, "%v", err)
		return
	}
	if m := b.Members(); len(b.Coincident) != m || len(b.Options) != m {
		v.fail(p, n, "%d members but %d coincident flags and %d options", m, len(b.Coincident), len(b.Options))
	}
	missing := must(s.reach.Subtract(must(b.Schedule.Domain())))
	if !must(missing.IsEmpty()) {
		v.fail(p, n, "schedule is not defined on the reaching instances %s", missing)
	}
	if bad := notFunction(must(b.Schedule.IntersectDomain(s.reach))); !must(bad.IsEmpty()) {
		v.fail(p, n, "schedule gives several values to the instances %s", bad)
	}
}

// shapeError reports a band schedule that no instances can make valid:
// no member, or a piece that does not map to an unnamed tuple of as many
// members as the others.
func (b Band) shapeError() error {
	m := b.Members()
	if m < 1 {
		return errors.New("a band needs at least one member")
	}
	for _, x := range b.Schedule.Maps() {
		if sp := x.Space(); sp.Out.Name != "" || sp.Out.Nest != nil || sp.NOut() != m {
			return fmt.Errorf("schedule %s does not map to an unnamed tuple of %d members", x, m)
		}
	}
	return nil
}

// readError is what the readers refuse in a band: a bad shape, or a
// schedule that is not a function (an unbound name, { S[i] -> [U] }, or a
// relation, { S[i] -> [j] : j >= i }), which no writer can write.
func (b Band) readError() (err error) {
	defer catch(&err)
	if err := b.shapeError(); err != nil {
		return err
	}
	if bad := notFunction(b.Schedule); !must(bad.IsEmpty()) {
		return fmt.Errorf("schedule %s is not a function: it gives several values to %s", b.Schedule, bad)
	}
	return nil
}

// contractionReadError is what the readers refuse in an expansion node: a
// contraction that is not a function, which no writer can write.
func contractionReadError(c presburger.UnionMap) (err error) {
	defer catch(&err)
	if bad := notFunction(c); !must(bad.IsEmpty()) {
		return fmt.Errorf("contraction %s is not a function: it gives several values to %s", c, bad)
	}
	return nil
}

// notFunction returns the instances m maps to more than one point.
func notFunction(m presburger.UnionMap) presburger.UnionSet {
	pairs := flatRangeProduct(m, m)
	var bad []presburger.Map
	for _, x := range pairs.Maps() {
		k := x.Space().NOut() / 2
		var ne []string
		for i := 0; i < k; i++ {
			ne = append(ne, fmt.Sprintf("a%d != b%d", i, i))
		}
		if k == 0 {
			continue
		}
		diff := must(presburger.ParseSet("{ [" + names("a", k) + ", " + names("b", k) + "] : " + strings.Join(ne, " or ") + " }"))
		bad = append(bad, must(x.IntersectRange(diff)))
	}
	return must(unionMap(bad).Domain())
}

func (v *validator) checkPartition(p Path, n *Node, s state) {
	covered := unionSet(nil)
	for i, c := range n.children {
		if c.kind != KindFilter {
			continue
		}
		fi := must(c.uset.Intersect(s.reach))
		for j := i + 1; j < len(n.children); j++ {
			if n.children[j].kind != KindFilter {
				continue
			}
			both := must(fi.Intersect(n.children[j].uset))
			if !must(both.IsEmpty()) {
				v.fail(p, n, "filters %d and %d overlap on %s", i, j, both)
			}
		}
		// The filters alone, not their parts in reach: reach minus
		// simple filters is cheap, reach minus pieces of itself is not.
		covered = must(covered.Union(c.uset))
	}
	if rest := must(s.reach.Subtract(covered)); !must(rest.IsEmpty()) {
		v.fail(p, n, "no filter holds the reaching instances %s", rest)
	}
}
