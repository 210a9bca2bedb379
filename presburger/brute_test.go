package presburger

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// randRel builds a random rel over np params and the given tuples, each
// piece with floor locals; box bounds every variable when set.
func randRel(rng *rand.Rand, sp Space, box int64) rel {
	np, ni, no := sp.NParam(), sp.NIn(), sp.NOut()
	nv := np + ni + no
	r := emptyRel(sp)
	for p := 0; p < 1+rng.Intn(2); p++ {
		b := newUniverse(np, ni, no)
		if rng.Intn(2) == 0 {
			num := make([]int64, b.nCol())
			for j := range num {
				num[j] = int64(rng.Intn(7) - 3)
			}
			b.addDiv(num, int64(2+rng.Intn(3)))
		}
		for c := 0; c < 1+rng.Intn(3); c++ {
			row := make([]int64, b.nCol())
			for j := range row {
				row[j] = int64(rng.Intn(9) - 4)
			}
			row[0] = int64(rng.Intn(11) - 3)
			if rng.Intn(5) == 0 {
				b.addEq(row)
			} else {
				b.addIneq(row)
			}
		}
		if box > 0 {
			for v := 0; v < nv; v++ {
				lo := make([]int64, b.nCol())
				lo[0], lo[1+v] = box, 1
				hi := make([]int64, b.nCol())
				hi[0], hi[1+v] = box, -1
				b.addIneq(lo)
				b.addIneq(hi)
			}
		}
		r.parts = append(r.parts, b.simplify())
	}
	return r
}

// points enumerates all vectors in [-B, B]^n.
func points(n int, B int64, f func([]int64)) {
	pt := make([]int64, n)
	var rec func(int)
	rec = func(i int) {
		if i == n {
			f(pt)
			return
		}
		for v := -B; v <= B; v++ {
			pt[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// bruteIn evaluates membership of a rel whose locals are all known.
func bruteIn(r rel, pt []int64) bool {
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		full, ok := b.evalDivs(append([]int64{1}, pt...))
		if !ok {
			panic("bruteIn needs known locals")
		}
		if b.holds(full) {
			return true
		}
	}
	return false
}

// checkSetCase checks the boolean set operations of one random case against
// brute-force membership in the box [-B, B].
func checkSetCase(t *testing.T, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	const B = 4
	params := []string{"N"}[:rng.Intn(2)]
	dims := []string{"x", "y", "z"}[:1+rng.Intn(2)]
	sp := SetSpace(params, NewTuple("S", dims...))
	a := randRel(rng, sp, 0)
	b := randRel(rng, sp, 0)
	n := len(params) + len(dims)
	run := func(name string, f func() rel, want func(pt []int64) bool) {
		t.Helper()
		var res rel
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(arith.Overflow); ok {
						t.Logf("seed %d %s: overflow (acceptable)", seed, name)
						return
					}
					panic(fmt.Sprintf("seed %d %s: %v\na = %s\nb = %s", seed, name, r, a, b))
				}
			}()
			res = f()
		}()
		points(n, B, func(pt []int64) {
			if g, w := res.contains(pt), want(pt); g != w {
				t.Fatalf("seed %d %s at %v: got %v want %v\na = %s\nb = %s\nresult = %s", seed, name, pt, g, w, a, b, res)
			}
		})
	}
	run("intersect", func() rel { return a.intersect(b) }, func(p []int64) bool { return bruteIn(a, p) && bruteIn(b, p) })
	run("union", func() rel { return a.union(b) }, func(p []int64) bool { return bruteIn(a, p) || bruteIn(b, p) })
	run("subtract", func() rel { return a.subtract(b) }, func(p []int64) bool { return bruteIn(a, p) && !bruteIn(b, p) })
	run("complement", func() rel { return a.complement() }, func(p []int64) bool { return !bruteIn(a, p) })
}

func TestOpsAgainstBruteForce(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		checkSetCase(t, seed)
	}
}

func FuzzSetOps(f *testing.F) {
	for s := int64(0); s < 8; s++ {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) { checkSetCase(t, seed) })
}

func TestProjectionAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const B = 4
	for iter := 0; iter < 300; iter++ {
		params := []string{"N"}[:rng.Intn(2)]
		dims := []string{"x", "y", "z"}[:2+rng.Intn(2)]
		sp := SetSpace(params, NewTuple("S", dims...))
		a := randRel(rng, sp, B)
		np := len(params)
		first := rng.Intn(len(dims))
		got := a.projectOut(DimOut, first, 1)
		points(np+len(dims)-1, B, func(pt []int64) {
			want := false
			for v := int64(-B); v <= B && !want; v++ {
				full := append(append(append([]int64(nil), pt[:np+first]...), v), pt[np+first:]...)
				want = bruteIn(a, full)
			}
			if g := got.contains(pt); g != want {
				t.Fatalf("iter %d project dim %d at %v: got %v want %v\na = %s\nresult = %s", iter, first, pt, g, want, a, got)
			}
		})
		// Emptiness and sampling of the boxed input.
		empty := true
		points(np+len(dims), B, func(pt []int64) {
			if bruteIn(a, pt) {
				empty = false
			}
		})
		if a.isEmpty() != empty {
			t.Fatalf("iter %d isEmpty = %v, brute force %v\na = %s", iter, !empty, empty, a)
		}
		if s := a.sample(); len(s.parts) > 0 {
			pt := s.parts[0].sample()[1:]
			if !bruteIn(a, pt) {
				t.Fatalf("iter %d sample %v not in %s", iter, pt, a)
			}
		} else if !empty {
			t.Fatalf("iter %d sample found nothing in non-empty %s", iter, a)
		}
	}
}
