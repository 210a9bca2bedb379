package presburger

import (
	"math/rand"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

func TestCoefficientsKnown(t *testing.T) {
	for _, tc := range []struct{ set, want string }{
		// c0 + cN N + ci i >= 0 on 0 <= i <= N: vertex 0, rays (N,i) = (1,0), (1,1).
		{"[N] -> { [i] : 0 <= i <= N }", "{ [c0, c1, c2] : c0 >= 0 and c1 >= 0 and c1 + c2 >= 0 }"},
		// An equality gives a free direction: only c0 + c1 x with x = 3.
		{"{ [x] : x = 3 }", "{ [c0, c1] : c0 + 3c1 >= 0 }"},
		{"{ [x, y] }", "{ [c0, c1, c2] : c0 >= 0 and c1 = 0 and c2 = 0 }"},
		{"{ [x] : 1 = 0 }", "{ [c0, c1] }"},
		// The existential is projected out (rationally): 0 <= x <= 4.
		{"{ [x] : exists e : x = 2e and 0 <= e <= 2 }", "{ [c0, c1] : c0 >= 0 and c0 + 4c1 >= 0 }"},
	} {
		s, err := ParseSet(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Coefficients()
		if err != nil {
			t.Fatalf("%s: %v", tc.set, err)
		}
		want, err := ParseSet(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(want); err != nil || !eq {
			t.Errorf("Coefficients(%s) = %s, want %s (%v)", tc.set, got, tc.want, err)
		}
	}
}

// TestCoefficientsBrute checks random polytopes with integral vertices
// (boxes cut by unimodular-ish constraints, so the rational and integer
// hulls are close enough that only integer-valid forms are compared where
// they must agree): a form from the cone is non-negative on every point,
// and a form non-negative on every point of a box is in the cone.
func TestCoefficientsBrute(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 60; iter++ {
		// A box [l0,h0] x [l1,h1] x [l2,h2] with one diagonal cut x0 + x1 <= k.
		var lo, hi [3]int64
		for d := range lo {
			lo[d] = int64(rng.Intn(5)) - 2
			hi[d] = lo[d] + int64(rng.Intn(4))
		}
		k := lo[0] + lo[1] + int64(rng.Intn(6))
		var eqs, ineqs [][]int64
		for d := 0; d < 3; d++ {
			r := make([]int64, 4)
			r[0], r[1+d] = -lo[d], 1
			ineqs = append(ineqs, r)
			r = make([]int64, 4)
			r[0], r[1+d] = hi[d], -1
			ineqs = append(ineqs, r)
		}
		ineqs = append(ineqs, []int64{k, -1, -1, 0})
		if rng.Intn(3) == 0 {
			eqs = append(eqs, []int64{-lo[2], 0, 0, 1})
		}
		s, err := SetFromConstraints(SetSpace(nil, NewTuple("", "a", "b", "c")), eqs, ineqs)
		if err != nil {
			t.Fatal(err)
		}
		var pts [][]int64
		if err := s.Foreach(func(pt []int64) error { pts = append(pts, append([]int64(nil), pt...)); return nil }); err != nil {
			t.Fatal(err)
		}
		cone, err := s.Coefficients()
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 200; trial++ {
			c := []int64{int64(rng.Intn(21)) - 10, int64(rng.Intn(7)) - 3, int64(rng.Intn(7)) - 3, int64(rng.Intn(7)) - 3}
			valid := true
			for _, p := range pts {
				if c[0]+c[1]*p[0]+c[2]*p[1]+c[3]*p[2] < 0 {
					valid = false
					break
				}
			}
			in, err := cone.Contains(c)
			if err != nil {
				t.Fatal(err)
			}
			// The cut x0 + x1 <= k has integral vertices within the box, so
			// the rational and integer hulls coincide: membership is exact.
			if in != valid {
				t.Fatalf("%s: form %v: in cone %v, valid on the points %v\ncone %s", s, c, in, valid, cone)
			}
		}
	}
}

func TestCoefficientsParametricDependence(t *testing.T) {
	// The jacobi-like dependence S[t, i] -> S[t + 1, i'] with |i - i'| <= 1:
	// phi = c_t t + c_i i is legal iff c_t - |c_i| >= 0.
	m, err := ParseMap("[T, N] -> { S[t, i] -> S[t', i'] : t' = t + 1 and 0 <= t and t' < T and 0 < i < N and 0 < i' < N and i - 1 <= i' <= i + 1 }")
	if err != nil {
		t.Fatal(err)
	}
	cone, err := m.Coefficients()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ct, ci int64
		legal  bool
	}{{1, 0, true}, {1, 1, true}, {2, 1, true}, {0, 1, false}, {1, 2, false}, {1, -1, true}, {0, 0, true}} {
		// The form phi(t', i') - phi(t, i): [c0, cT, cN, -ct, -ci, ct, ci].
		ok, err := cone.Contains([]int64{0, 0, 0, -tc.ct, -tc.ci, tc.ct, tc.ci})
		if err != nil {
			t.Fatal(err)
		}
		if ok != tc.legal {
			t.Errorf("c = (%d, %d): legal %v, want %v (cone %s)", tc.ct, tc.ci, ok, tc.legal, cone)
		}
	}
}

// TestCoefficientsRationalExact compares cone membership with the rational
// minimum of the form over random polyhedra (some unbounded, some with
// equalities and parameters): c is in the cone iff min c0 + c·x >= 0.
func TestCoefficientsRationalExact(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const n = 4 // one parameter, three dimensions
	for iter := 0; iter < 150; iter++ {
		var eqs, ineqs [][]int64
		for k := 0; k < 4+rng.Intn(6); k++ {
			r := make([]int64, 1+n)
			r[0] = int64(rng.Intn(9))
			for j := 1; j <= n; j++ {
				r[j] = int64(rng.Intn(5)) - 2
			}
			ineqs = append(ineqs, r)
		}
		if rng.Intn(4) == 0 {
			r := make([]int64, 1+n)
			for j := range r {
				r[j] = int64(rng.Intn(5)) - 2
			}
			eqs = append(eqs, r)
		}
		s, err := SetFromConstraints(SetSpace([]string{"N"}, NewTuple("", "a", "b", "c")), eqs, ineqs)
		if err != nil {
			t.Fatal(err)
		}
		if empty, _ := s.IsEmpty(); empty {
			continue
		}
		cone, err := s.Coefficients()
		if err != nil {
			t.Fatal(err)
		}
		tab := simplex.NewTableau(n, nil)
		for _, c := range s.Constraints() {
			for _, e := range c.Eqs {
				tab.AddEq(e)
			}
			for _, in := range c.Ineqs {
				tab.AddIneq(in)
			}
		}
		for trial := 0; trial < 60; trial++ {
			c := make([]int64, 1+n)
			for j := range c {
				c[j] = int64(rng.Intn(7)) - 3
			}
			num, _, st := tab.Min(c)
			valid := st == simplex.Optimal && num >= 0
			in, err := cone.Contains(c)
			if err != nil {
				t.Fatal(err)
			}
			if in != valid {
				t.Fatalf("%s: form %v: in cone %v, rational minimum %d (%v)\ncone %s", s, c, in, num, st, cone)
			}
		}
	}
}
