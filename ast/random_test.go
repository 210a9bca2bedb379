package ast_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// randomCase is a schedule tree built by random edits of a random domain,
// with the instances its schedule map should be compared on.
type randomCase struct {
	desc   []string // what was done, for failure messages
	tree   scheduletree.Tree
	base   scheduletree.Tree   // the tree before the extension
	domain presburger.UnionSet // the root domain and the extension statements
}

type rnd struct{ *rand.Rand }

func (r rnd) pick(xs ...string) string { return xs[r.IntN(len(xs))] }

// dimConstraint bounds dimension d of a statement.
func (r rnd) dimConstraint(it []string, d int, params []string) string {
	x := it[d]
	lo := r.pick("0 <= "+x, "1 <= "+x, "-2 <= "+x, "0 <= "+x)
	hi := r.pick(x+" < N", x+" <= 5", x+" < N", x+" <= N + 1")
	if len(params) > 1 && r.IntN(4) == 0 {
		hi = x + " < M"
	}
	if d > 0 {
		y := it[r.IntN(d)]
		switch r.IntN(5) {
		case 0:
			lo = y + " <= " + x
		case 1:
			hi = x + " <= " + y + " + 2"
		case 2:
			hi = x + " < N - " + y
		}
	}
	c := lo + " and " + hi
	switch r.IntN(8) {
	case 0:
		c += " and " + x + " mod 2 = 0"
	case 1:
		if d > 0 {
			c += fmt.Sprintf(" and (%s + %s) mod 3 = 1", it[0], x)
		}
	}
	return c
}

// domain returns a random statement domain.
func (r rnd) domain(name string, n int, params []string) string {
	it := make([]string, n)
	for i := range it {
		it[i] = fmt.Sprintf("i%d", i)
	}
	conj := func() string {
		var cs []string
		for d := 0; d < n; d++ {
			cs = append(cs, r.dimConstraint(it, d, params))
		}
		return strings.Join(cs, " and ")
	}
	body := conj()
	if r.IntN(5) == 0 {
		body = "(" + body + ") or (" + conj() + ")"
	}
	if r.IntN(10) == 0 {
		body += " and N >= 3"
	}
	return fmt.Sprintf("%s[%s] : %s", name, strings.Join(it, ", "), body)
}

func tuple(prefix string, n int) string {
	xs := make([]string, n)
	for i := range xs {
		xs[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return "[" + strings.Join(xs, ", ") + "]"
}

func mustUS(s string) presburger.UnionSet {
	u, err := presburger.ParseUnionSet(s)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", s, err))
	}
	return u
}

func mustUM(s string) presburger.UnionMap {
	u, err := presburger.ParseUnionMap(s)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", s, err))
	}
	return u
}

// newRandomCase builds case number seed.
func newRandomCase(seed uint64) (*randomCase, error) {
	r := rnd{rand.New(rand.NewPCG(seed, 0x7a57))}
	params := []string{"N"}
	if r.IntN(4) == 0 {
		params = append(params, "M")
	}
	pre := "[" + strings.Join(params, ", ") + "] -> "
	nst := 1 + r.IntN(3)
	dims := make([]int, nst)
	width := 0
	var doms []string
	for k := range dims {
		dims[k] = 1 + r.IntN(2)
		if r.IntN(6) == 0 {
			dims[k] = 3
		}
		width = max(width, dims[k])
		doms = append(doms, r.domain(fmt.Sprintf("S%d", k), dims[k], params))
	}
	c := &randomCase{}
	c.desc = append(c.desc, "domain "+pre+"{ "+strings.Join(doms, "; ")+" }")
	dom := mustUS(pre + "{ " + strings.Join(doms, "; ") + " }")
	ident := func(k int, w int) string {
		it := tuple("i", dims[k])
		out := make([]string, w)
		for i := range out {
			out[i] = "0"
			if i < dims[k] {
				out[i] = fmt.Sprintf("i%d", i)
			}
		}
		return fmt.Sprintf("S%d%s -> [%s]", k, it, strings.Join(out, ", "))
	}
	band := func(sched string, n int) scheduletree.Band {
		b := scheduletree.Band{Schedule: mustUM("{ " + sched + " }"), Permutable: true, Coincident: make([]bool, n)}
		for i := range b.Coincident {
			b.Coincident[i] = r.IntN(2) == 0
		}
		return b
	}
	var root *scheduletree.Node
	if nst == 1 || r.IntN(2) == 0 {
		var kids []*scheduletree.Node
		for k := range dims {
			f := mustUS(fmt.Sprintf("{ S%d%s }", k, tuple("i", dims[k])))
			kids = append(kids, scheduletree.NewFilter(f, scheduletree.NewBand(band(ident(k, dims[k]), dims[k]), nil)))
		}
		root = kids[0].Child(0)
		if nst > 1 {
			root = scheduletree.NewSequence(kids...)
		}
		c.desc = append(c.desc, "one band per statement")
	} else {
		var parts []string
		var kids []*scheduletree.Node
		for k := range dims {
			parts = append(parts, ident(k, width))
			kids = append(kids, scheduletree.NewFilter(mustUS(fmt.Sprintf("{ S%d%s }", k, tuple("i", dims[k]))), nil))
		}
		var below *scheduletree.Node
		if r.IntN(2) == 0 {
			below = scheduletree.NewSequence(kids...)
		}
		root = scheduletree.NewBand(band(strings.Join(parts, "; "), width), below)
		c.desc = append(c.desc, "one shared band")
	}
	t, err := scheduletree.NewTree(scheduletree.NewDomain(dom, root))
	if err != nil {
		return nil, err
	}
	for e := r.IntN(4); e > 0; e-- {
		if t, err = c.edit(r, t); err != nil {
			return nil, err
		}
	}
	c.base = t
	if r.IntN(3) == 0 {
		if t, dom, err = c.extend(r, t, dom, params); err != nil {
			return nil, err
		}
	}
	c.tree, c.domain = t, dom
	return c, nil
}

// bands lists the paths of the band nodes of t.
func bands(t scheduletree.Tree) []scheduletree.Path {
	var out []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand {
			out = append(out, append(scheduletree.Path(nil), p...))
		}
		return true
	})
	return out
}

// edit applies one random band edit.
func (c *randomCase) edit(r rnd, t scheduletree.Tree) (scheduletree.Tree, error) {
	bs := bands(t)
	p := bs[r.IntN(len(bs))]
	n, err := t.At(p)
	if err != nil {
		return t, err
	}
	b := n.Band()
	m := b.Members()
	s := tuple("s", m)
	switch r.IntN(7) {
	case 0, 1:
		sizes := make([]int64, m)
		for i := range sizes {
			sizes[i] = int64(2 + r.IntN(3))
		}
		c.desc = append(c.desc, fmt.Sprintf("tile %v by %v", p, sizes))
		return t.TileBand(p, sizes)
	case 2:
		perm := r.Perm(m)
		c.desc = append(c.desc, fmt.Sprintf("permute %v by %v", p, perm))
		return t.PermuteBand(p, perm)
	case 3:
		out := strings.Split(strings.Trim(s, "[]"), ", ")
		k := r.IntN(m)
		switch r.IntN(4) {
		case 0:
			if m > 1 {
				j := (k + 1 + r.IntN(m-1)) % m
				out[k] = fmt.Sprintf("s%d + s%d", k, j)
			}
		case 1:
			out[k] = fmt.Sprintf("2s%d", k)
		case 2:
			out[k] = fmt.Sprintf("-s%d", k)
		default:
			out[k] = fmt.Sprintf("s%d + 3", k)
		}
		f := mustUM("{ " + s + " -> [" + strings.Join(out, ", ") + "] }")
		sched, err := b.Schedule.ApplyRange(f)
		if err != nil {
			return t, err
		}
		b.Schedule = sched
		c.desc = append(c.desc, fmt.Sprintf("transform %v by %s", p, f))
		return t.SetBand(p, b)
	case 4:
		if m > 1 {
			k := 1 + r.IntN(m-1)
			c.desc = append(c.desc, fmt.Sprintf("split %v at %d", p, k))
			return t.SplitBand(p, k)
		}
	case 5:
		b.Options = make([]scheduletree.Option, m)
		for i := range b.Options {
			b.Options[i] = scheduletree.Option(r.IntN(4))
		}
		c.desc = append(c.desc, fmt.Sprintf("options %v %v", p, b.Options))
		return t.SetBand(p, b)
	case 6:
		c.desc = append(c.desc, fmt.Sprintf("parallel mark at %v", p))
		return t.InsertMark(p, "parallel")
	}
	return t, nil
}

// extend inserts, below a random band, an extension adding instances of
// a new statement X at the prefix points the instances there reach (one
// to three per point, overlapping between neighbours), in a sequence
// before or after the original subtree.
func (c *randomCase) extend(r rnd, t scheduletree.Tree, dom presburger.UnionSet, params []string) (scheduletree.Tree, presburger.UnionSet, error) {
	bs := bands(t)
	p := bs[r.IntN(len(bs))].Child(0)
	depth, err := t.ScheduleDepth(p)
	if err != nil {
		return t, dom, err
	}
	pre, err := t.PrefixSchedule(p)
	if err != nil {
		return t, dom, err
	}
	inst, err := t.Instances(p)
	if err != nil {
		return t, dom, err
	}
	if pre, err = pre.IntersectDomain(inst); err != nil {
		return t, dom, err
	}
	reached, err := pre.Range()
	if err != nil {
		return t, dom, err
	}
	last := fmt.Sprintf("c%d", depth-1)
	ps := "[" + strings.Join(params, ", ") + "] -> "
	ext := mustUM(ps + "{ " + tuple("c", depth) + " -> X[x] : " + last + " <= x <= " + last + " + " + fmt.Sprint(r.IntN(3)) + " }")
	var sets []presburger.Set
	for _, s := range reached.Sets() {
		sets = append(sets, s)
	}
	rs, err := presburger.UnionSetFromSets(sets...)
	if err == nil {
		ext, err = ext.IntersectDomain(rs)
	}
	if err != nil {
		return t, dom, err
	}
	n, err := t.At(p)
	if err != nil {
		return t, dom, err
	}
	xs := scheduletree.NewFilter(mustUS("{ X[x] }"), nil)
	old, err := inst.Coalesce()
	if err != nil {
		return t, dom, err
	}
	var univs []presburger.Set
	for _, s := range old.Sets() {
		univs = append(univs, presburger.UniverseSet(presburger.SetSpace(nil, s.Space().Out)))
	}
	univ, err := presburger.UnionSetFromSets(univs...)
	if err != nil {
		return t, dom, err
	}
	rest := scheduletree.NewFilter(univ, n)
	kids := []*scheduletree.Node{xs, rest}
	if r.IntN(2) == 0 {
		kids = []*scheduletree.Node{rest, xs}
	}
	t, err = t.Replace(p, scheduletree.NewExtension(ext, scheduletree.NewSequence(kids...)))
	if err != nil {
		return t, dom, err
	}
	xd, err := ext.Range()
	if err == nil {
		dom, err = dom.Union(xd)
	}
	c.desc = append(c.desc, fmt.Sprintf("extension at %v: %s", p, ext))
	return t, dom, err
}
