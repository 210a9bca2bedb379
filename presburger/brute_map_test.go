package presburger

import (
	"math/rand"
	"testing"
)

// checkMapCase checks map operations of one random case against brute force
// over the box [-B, B]; inputs are boxed so projections are enumerable.
func checkMapCase(t *testing.T, seed int64) {
	t.Helper()
	const B = 3
	rng := rand.New(rand.NewSource(seed))
	params := []string{"N"}[:rng.Intn(2)]
	np := len(params)
	a := NewTuple("A", []string{"a0", "a1"}[:1+rng.Intn(2)]...)
	bt := NewTuple("B", []string{"b0", "b1"}[:1+rng.Intn(2)]...)
	m := randRel(rng, MapSpace(params, a, bt), B)
	m2 := randRel(rng, MapSpace(params, bt, a), B)
	s := randRel(rng, SetSpace(params, a), B)
	na, nb := a.Len(), bt.Len()
	split := func(pt []int64, sizes ...int) [][]int64 {
		var out [][]int64
		for _, n := range sizes {
			out = append(out, pt[:n])
			pt = pt[n:]
		}
		return out
	}
	cat := func(parts ...[]int64) []int64 {
		var out []int64
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	exists := func(n int, f func([]int64) bool) bool {
		found := false
		points(n, B, func(v []int64) {
			if !found && f(v) {
				found = true
			}
		})
		return found
	}
	check := func(name string, got rel, n int, want func([]int64) bool) {
		t.Helper()
		points(n, B, func(pt []int64) {
			if g, w := got.contains(pt), want(pt); g != w {
				t.Fatalf("seed %d %s at %v: got %v want %v\nm = %s\nm2 = %s\ns = %s\nresult = %s", seed, name, pt, g, w, m, m2, s, got)
			}
		})
	}
	check("reverse", m.reverse(), np+nb+na, func(pt []int64) bool {
		p := split(pt, np, nb, na)
		return bruteIn(m, cat(p[0], p[2], p[1]))
	})
	check("domain", m.domain(), np+na, func(pt []int64) bool {
		return exists(nb, func(y []int64) bool { return bruteIn(m, cat(pt, y)) })
	})
	check("range", m.rangeSet(), np+nb, func(pt []int64) bool {
		p := split(pt, np, nb)
		return exists(na, func(x []int64) bool { return bruteIn(m, cat(p[0], x, p[1])) })
	})
	check("apply", s.apply(m), np+nb, func(pt []int64) bool {
		p := split(pt, np, nb)
		return exists(na, func(x []int64) bool { return bruteIn(s, cat(p[0], x)) && bruteIn(m, cat(p[0], x, p[1])) })
	})
	check("apply_range", m.applyRange(m2), np+na+na, func(pt []int64) bool {
		p := split(pt, np, na, na)
		return exists(nb, func(y []int64) bool {
			return bruteIn(m, cat(p[0], p[1], y)) && bruteIn(m2, cat(p[0], y, p[2]))
		})
	})
	check("intersect_domain", m.intersectDomain(s), np+na+nb, func(pt []int64) bool {
		p := split(pt, np, na, nb)
		return bruteIn(m, pt) && bruteIn(s, cat(p[0], p[1]))
	})
	check("wrap-unwrap", m.wrap().unwrap(), np+na+nb, func(pt []int64) bool { return bruteIn(m, pt) })
	check("params", m.params(), np, func(pt []int64) bool {
		return exists(na+nb, func(v []int64) bool { return bruteIn(m, cat(pt, v)) })
	})
	if na == nb {
		// deltas of values within [-B, B] lie in [-2B, 2B]; check the inner box.
		check("deltas", m.deltas(), np+nb, func(pt []int64) bool {
			p := split(pt, np, nb)
			return exists(na, func(x []int64) bool {
				y := make([]int64, nb)
				for j := range y {
					y[j] = x[j] + p[1][j]
				}
				return bruteIn(m, cat(p[0], x, y))
			})
		})
	}
	sub, eq := m.isSubset(m.union(m2.reverse())), m.isEqual(m)
	if !sub || !eq {
		t.Fatalf("seed %d: subset/equal identities failed\nm = %s", seed, m)
	}
}

func TestMapOpsAgainstBruteForce(t *testing.T) {
	for seed := int64(0); seed < 30; seed++ {
		checkMapCase(t, seed)
	}
}

func FuzzMapOps(f *testing.F) {
	for s := int64(0); s < 8; s++ {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) { checkMapCase(t, seed) })
}
