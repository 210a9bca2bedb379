package islcodegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// Params are the parameters of an input, with the parameter set that
// isl's code assumes (the context given beside the tree and the tree's
// outermost context nodes).
type Params struct {
	Names   []string
	Context []presburger.Set
}

// InputParams collects the parameters of in and the contexts it assumes.
func InputParams(in Input) (Params, error) {
	var p Params
	add := func(names []string) {
		for _, n := range names {
			if !slices.Contains(p.Names, n) {
				p.Names = append(p.Names, n)
			}
		}
	}
	root := in.Tree.Root()
	for _, s := range root.Domain().Sets() {
		add(s.Space().Params)
	}
	if in.HasContext {
		add(in.Context.Space().Params)
		p.Context = append(p.Context, in.Context)
	}
	for n := root; n.NumChildren() == 1; {
		n = n.Child(0)
		if n.Kind() != scheduletree.KindContext {
			break
		}
		ps, err := n.Context().Params()
		if err != nil {
			return p, err
		}
		add(ps.Space().Params)
		p.Context = append(p.Context, ps)
	}
	slices.Sort(p.Names)
	return p, nil
}

// candidates are the small values tried for the parameters, all equal
// first, then spread apart.
var candidates = []int64{4, 5, 3, 6, 2, 7, 8, 1, 10, 0, 12, 16, 20, 25, 32, 50, 64, 100, -1, -2, -4}

// Choose returns up to n parameter valuations that satisfy the contexts,
// from small values: every parameter the same value v, then parameter i
// at v + i, v + 2i, and v - i.
func (p Params) Choose(n int) ([]map[string]int64, error) {
	var out []map[string]int64
	for _, spread := range []int64{0, 1, 2, -1} {
		for _, v := range candidates {
			vals := map[string]int64{}
			for i, name := range p.Names {
				vals[name] = v + spread*int64(i)
			}
			ok, err := p.holds(vals)
			if err != nil {
				return nil, err
			}
			if ok && !slices.ContainsFunc(out, func(m map[string]int64) bool { return equalVals(m, vals) }) {
				out = append(out, vals)
				if len(out) == n {
					return out, nil
				}
			}
			if len(p.Names) == 0 {
				return out, nil
			}
		}
	}
	return p.sample(out, n)
}

// sample adds valuations to out, up to n, from the contexts intersected
// with ever larger boxes around zero: contexts that fix some parameters
// or relate them (n = 6 and m >= 7, g0 = h0 and 2048e = g1 - 32b0) admit
// no valuation of the candidates.
func (p Params) sample(out []map[string]int64, n int) ([]map[string]int64, error) {
	for _, size := range []int{8, 64, 1024, 1 << 16} {
		conds := make([]string, len(p.Names))
		for i, name := range p.Names {
			conds[i] = fmt.Sprintf("-%d <= %s <= %d", size, name, size)
		}
		set, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { : %s }", strings.Join(p.Names, ", "), strings.Join(conds, " and ")))
		if err != nil {
			return nil, err
		}
		for _, c := range p.Context {
			if set, err = set.Intersect(c); err != nil {
				return nil, err
			}
		}
		for _, v := range out {
			point, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { : %s }", strings.Join(p.Names, ", "), equalities(p.Names, v)))
			if err != nil {
				return nil, err
			}
			if set, err = set.Subtract(point); err != nil {
				return nil, err
			}
		}
		for len(out) < n {
			pt, ok, err := set.SamplePoint()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			vals := map[string]int64{}
			for i, name := range set.Space().Params {
				vals[name] = pt[i]
			}
			out = append(out, vals)
			point, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { : %s }", strings.Join(p.Names, ", "), equalities(p.Names, vals)))
			if err != nil {
				return nil, err
			}
			if set, err = set.Subtract(point); err != nil {
				return nil, err
			}
		}
		if len(out) == n {
			break
		}
	}
	return out, nil
}

func equalities(names []string, vals map[string]int64) string {
	eqs := make([]string, len(names))
	for i, name := range names {
		eqs[i] = fmt.Sprintf("%s = %d", name, vals[name])
	}
	return strings.Join(eqs, " and ")
}

func (p Params) holds(vals map[string]int64) (bool, error) {
	for _, c := range p.Context {
		fixed, err := c.FixParams(restrict(vals, c.Space().Params))
		if err != nil {
			return false, err
		}
		if empty, err := fixed.IsEmpty(); err != nil || empty {
			return false, err
		}
	}
	return true, nil
}

func restrict(vals map[string]int64, names []string) map[string]int64 {
	out := map[string]int64{}
	for _, n := range names {
		out[n] = vals[n]
	}
	return out
}

func equalVals(a, b map[string]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}
